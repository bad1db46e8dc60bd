import { isHttps, sessionCookie } from '@/lib/auth/request';
import { login } from '@/lib/auth/service';
import type { LoggedInDto } from '@/lib/auth/types';
import type { Sendable } from '@/lib/client/api';
import { json, route } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

/** `{ email, password, next? }` → the user, the session cookie, and `next` made safe (./lib/auth/next-path). */
export const POST = route(async (request: Request) => {
  const { user, token, expiresAt, next } = await login(request);
  return json({ user, next } satisfies Sendable<LoggedInDto>, {
    headers: { 'set-cookie': sessionCookie(token, expiresAt, isHttps(request)) },
  });
});
