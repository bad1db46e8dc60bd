import { deleteSession } from '@/lib/auth/mutations';
import { clearedSessionCookie, isHttps, readCookie, SESSION_COOKIE } from '@/lib/auth/request';
import { sha256 } from '@/lib/auth/secrets';
import { guarded } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

/** Signs this browser out. */
export const POST = guarded('viewer', async (request: Request) => {
  const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
  if (token) await deleteSession(sha256(token));
  return new Response(null, {
    status: 204,
    headers: { 'set-cookie': clearedSessionCookie(isHttps(request)) },
  });
});
