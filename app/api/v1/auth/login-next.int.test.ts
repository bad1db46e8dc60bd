// Where a browser goes after signing in, through the real sign-in route over HTTP: the answer's `next`
// (which the login form follows) is the asked-for path only when it is a path of this site.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import { HOSTILE_NEXT } from '@/lib/test-support/hostile-next';
import { type RouteServer, send, startRouteServer } from '@/lib/test-support/route-server';
import * as login from './login/route';

let server: RouteServer;
let email: string;
// One client address for this file, so the sign-ins here count against nobody else's.
const from = `127.44.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

beforeAll(async () => {
  server = await startRouteServer({
    'POST /api/v1/auth/login': (request) => login.POST(request, undefined as never),
  });
  const caller = await testCaller('viewer');
  email = (await pool().query('SELECT email FROM users WHERE id = $1', [caller.id])).rows[0].email;
});
afterAll(async () => {
  await server.close();
  await stopBoss();
});

async function nextAfterSignIn(next: string | undefined): Promise<string> {
  const res = await send(server.origin, '/api/v1/auth/login', {
    from,
    body: { email, password: 'a long enough password', ...(next === undefined ? {} : { next }) },
  });
  expect(res.status).toBe(200);
  return JSON.parse(res.body).next;
}

describe('POST /auth/login with next', () => {
  it.each(HOSTILE_NEXT)('answers next "/" for %j', async (next) => {
    expect(await nextAfterSignIn(next)).toBe('/');
  });

  it('keeps a path of this site, with its query and fragment', async () => {
    expect(await nextAfterSignIn('/audits/3?tab=review#x')).toBe('/audits/3?tab=review#x');
    expect(await nextAfterSignIn(`/audits/${randomUUID()}`)).toMatch(/^\/audits\/[0-9a-f-]{36}$/);
    expect(await nextAfterSignIn(undefined)).toBe('/');
  });

  it('refuses a next longer than any path of ours with a 400', async () => {
    const res = await send(server.origin, '/api/v1/auth/login', {
      from,
      body: { email, password: 'a long enough password', next: `/${'a'.repeat(5000)}` },
    });
    expect(res.status).toBe(400);
  });
});
