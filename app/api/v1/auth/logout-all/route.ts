import { deleteUserSessions } from '@/lib/auth/mutations';
import { clearedSessionCookie, isHttps } from '@/lib/auth/request';
import type { SessionsEndedDto } from '@/lib/auth/types';
import type { Sendable } from '@/lib/client/api';
import { guarded, json } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

/** Signs the caller out on every browser (API tokens stay; revoke those on their own). */
export const POST = guarded('viewer', async (request: Request, _context: unknown, actor) => {
  const sessions = await deleteUserSessions(actor.id);
  return json({ sessions } satisfies Sendable<SessionsEndedDto>, {
    headers: { 'set-cookie': clearedSessionCookie(isHttps(request)) },
  });
});
