// An admin's password reset (PATCH /users/{id} with a password): the user's sessions end, and their API
// tokens are revoked unless the admin says `revokeTokens: false`.
import { afterAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import * as login from '../../auth/login/route';
import * as me from '../../auth/me/route';
import * as user from './route';

afterAll(() => stopBoss());

const origin = 'http://localhost';
const admin = await testCaller('admin');

function reset(target: TestCaller, body: object): Promise<Response> {
  return user.PATCH(
    admin.request(`${origin}/api/v1/users/${target.id}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
    { params: Promise.resolve({ id: target.id }) } as never,
  );
}

const meWith = (headers: Record<string, string>) =>
  me.GET(new Request(`${origin}/api/v1/auth/me`, { headers }), undefined as never);

async function sessionOf(target: TestCaller): Promise<string> {
  const email = (await pool().query('SELECT email FROM users WHERE id = $1', [target.id])).rows[0].email;
  const res = await login.POST(
    new Request(`${origin}/api/v1/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password: 'a long enough password' }),
      headers: { 'content-type': 'application/json' },
    }),
    undefined as never,
  );
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

describe('an admin resets a password', () => {
  it('revokes the user’s API tokens by default and ends their sessions', async () => {
    const target = await testCaller('reviewer');
    const cookie = await sessionOf(target);
    expect((await meWith({ authorization: `Bearer ${target.token}` })).status).toBe(200);
    expect((await meWith({ cookie })).status).toBe(200);

    expect((await reset(target, { password: 'a reset password here' })).status).toBe(200);
    expect((await meWith({ authorization: `Bearer ${target.token}` })).status).toBe(401);
    expect((await meWith({ cookie })).status).toBe(401);
    const { rows } = await pool().query('SELECT revoked_at FROM api_tokens WHERE user_id = $1', [target.id]);
    expect(rows.length).toBe(1);
    expect(rows[0].revoked_at).toBeInstanceOf(Date);
  });

  it('keeps the tokens working with revokeTokens: false (sessions still end)', async () => {
    const target = await testCaller('viewer');
    const cookie = await sessionOf(target);
    expect((await reset(target, { password: 'a reset password here', revokeTokens: false })).status).toBe(
      200,
    );
    expect((await meWith({ authorization: `Bearer ${target.token}` })).status).toBe(200);
    expect((await meWith({ cookie })).status).toBe(401);
  });

  it('leaves tokens alone on changes that are not a reset, and refuses revokeTokens without a password', async () => {
    const target = await testCaller('viewer');
    expect((await reset(target, { role: 'reviewer' })).status).toBe(200);
    expect((await meWith({ authorization: `Bearer ${target.token}` })).status).toBe(200);
    const refused = await reset(target, { role: 'viewer', revokeTokens: true });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toMatch(/revokeTokens goes with a new password/);
    expect((await meWith({ authorization: `Bearer ${target.token}` })).status).toBe(200);
  });
});
