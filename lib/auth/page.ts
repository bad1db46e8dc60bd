// The signed-in user of a page render (server components). Pages of the app require a session; with no
// user at all the app sends people to the one-time setup.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { countUsers } from './data';
import { REQUEST_PATH_HEADER, safeNextPath } from './next-path';
import { type Actor, actorFromSessionToken, SESSION_COOKIE } from './request';
import { allows, type Role } from './roles';

/** Once per request: the layout and the page both ask, and each lookup is a query (and may renew). */
export const pageActor = cache(async (): Promise<Actor | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value ?? null;
  return actorFromSessionToken(token);
});

/** The user, or a redirect to /setup (no user yet) or /login (back to `from`, by default the page asked
 * for, after signing in); a role too low gets the 403 page. */
export async function requirePageActor(needed: Role = 'viewer', from?: string): Promise<Actor> {
  const actor = await pageActor();
  if (!actor) {
    if ((await countUsers()) === 0) redirect('/setup');
    const next = safeNextPath(from ?? (await headers()).get(REQUEST_PATH_HEADER));
    redirect(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`);
  }
  if (!allows(actor.role, needed)) redirect('/forbidden');
  return actor;
}
