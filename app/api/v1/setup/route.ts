import { isHttps, sessionCookie } from '@/lib/auth/request';
import { setup } from '@/lib/auth/service';
import { json, route } from '@/lib/server/respond';

export const dynamic = 'force-dynamic';

export const POST = route(async (request: Request) => {
  const { user, token, expiresAt } = await setup(request);
  return json(
    { user },
    { status: 201, headers: { 'set-cookie': sessionCookie(token, expiresAt, isHttps(request)) } },
  );
});
