import { json, route } from '@/lib/api/respond';
import { isHttps, sessionCookie } from '@/lib/auth/request';
import { login } from '@/lib/auth/service';

export const dynamic = 'force-dynamic';

export const POST = route(async (request: Request) => {
  const { user, token, expiresAt } = await login(request);
  return json({ user }, { headers: { 'set-cookie': sessionCookie(token, expiresAt, isHttps(request)) } });
});
