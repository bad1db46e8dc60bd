// Sign-in limits over real HTTP, where the socket's peer is known and X-Forwarded-* is only what a client
// claims: TRUST_PROXY decides which address is counted and which host and scheme links and cookies use;
// failures are reserved before the password is checked, so concurrent guesses buy nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import { type RouteServer, send, startRouteServer } from '@/lib/test-support/route-server';
import * as shares from '../audits/[id]/shares/route';
import * as login from './login/route';
import * as me from './me/route';
import * as password from './password/route';

const PASSWORD = 'a long enough password';
let server: RouteServer;
let auditId: string;

beforeAll(async () => {
  auditId = randomUUID();
  await pool().query(`INSERT INTO audits (id, name) VALUES ($1, 'share links')`, [auditId]);
  server = await startRouteServer({
    'POST /api/v1/auth/login': (request) => login.POST(request, undefined as never),
    'POST /api/v1/auth/password': (request) => password.POST(request, undefined as never),
    'GET /api/v1/auth/me': (request) => me.GET(request, undefined as never),
    [`POST /api/v1/audits/${auditId}/shares`]: (request) =>
      shares.POST(request, { params: Promise.resolve({ id: auditId }) } as never),
  });
});
afterAll(async () => {
  await server.close();
  await stopBoss();
});
afterEach(() => {
  delete process.env.TRUST_PROXY;
});

/** A loopback address no other test (or earlier run) has used: its own throttle key. */
function freshLoopback(): string {
  const bytes = randomUUID().replaceAll('-', '');
  return `127.${[0, 2, 4].map((i) => (Number.parseInt(bytes.slice(i, i + 2), 16) % 254) + 1).join('.')}`;
}

async function emailOf(id: string): Promise<string> {
  return (await pool().query('SELECT email FROM users WHERE id = $1', [id])).rows[0].email;
}

const signIn = (email: string, pw: string, from: string, headers: Record<string, string> = {}) =>
  send(server.origin, '/api/v1/auth/login', { body: { email, password: pw }, from, headers });

const ghost = () => `${randomUUID()}@test.example`;

describe('the address sign-ins are counted against', () => {
  it('is the socket peer without TRUST_PROXY: 35 guesses with rotating X-Forwarded-For are locked after 30', async () => {
    const from = freshLoopback();
    const statuses: number[] = [];
    for (let i = 0; i < 35; i++) {
      const res = await signIn(ghost(), 'wrong password!', from, { 'x-forwarded-for': `198.51.100.${i}` });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual(Array(5).fill(429));

    // The locked address cannot sign in to a real account by claiming to be someone else.
    const email = await emailOf((await testCaller('viewer')).id);
    const res = await signIn(email, PASSWORD, from, { 'x-forwarded-for': '203.0.113.200' });
    expect(res.status).toBe(429);
    // Another address still can.
    expect((await signIn(email, PASSWORD, freshLoopback())).status).toBe(200);
  });

  it('with TRUST_PROXY=1 is the right-most X-Forwarded-For entry, whatever the client put to its left', async () => {
    process.env.TRUST_PROXY = '1';
    const proxy = freshLoopback();
    const client = `198.51.100.${Math.floor(Math.random() * 200) + 20}`;
    await pool().query('DELETE FROM login_throttle WHERE key = $1', [`ip:${client}`]);
    for (let i = 0; i < 30; i++) {
      const res = await signIn(ghost(), 'wrong password!', proxy, {
        'x-forwarded-for': `10.9.${i}.1, ${client}`,
      });
      expect(res.status).toBe(401);
    }
    const keys = await pool().query<{ key: string; failures: number }>(
      `SELECT key, failures FROM login_throttle WHERE key = ANY($1)`,
      [[`ip:${client}`, `ip:${proxy}`, 'ip:10.9.0.1']],
    );
    expect(keys.rows).toEqual([{ key: `ip:${client}`, failures: 30 }]);
    expect(
      (await signIn(ghost(), 'wrong password!', proxy, { 'x-forwarded-for': `203.0.113.9, ${client}` }))
        .status,
    ).toBe(429);
    // The proxy's other clients are not locked with it.
    const email = await emailOf((await testCaller('viewer')).id);
    const other = `203.0.113.${Math.floor(Math.random() * 200) + 20}`;
    expect((await signIn(email, PASSWORD, proxy, { 'x-forwarded-for': other })).status).toBe(200);
  });

  it('with a list of proxy addresses is the first hop outside the list', async () => {
    const proxy = freshLoopback();
    process.env.TRUST_PROXY = `${proxy}, 10.0.0.0/8`;
    const client = `198.51.100.${Math.floor(Math.random() * 200) + 20}`;
    await pool().query('DELETE FROM login_throttle WHERE key = $1', [`ip:${client}`]);
    await signIn(ghost(), 'wrong password!', proxy, { 'x-forwarded-for': `192.0.2.1, ${client}, 10.1.2.3` });
    const { rows } = await pool().query('SELECT failures FROM login_throttle WHERE key = $1', [
      `ip:${client}`,
    ]);
    expect(rows).toEqual([{ failures: 1 }]);
  });
});

describe('forwarded host and scheme', () => {
  async function shareUrl(from: string, headers: Record<string, string>): Promise<string> {
    const reviewer = await testCaller('reviewer');
    const res = await send(server.origin, `/api/v1/audits/${auditId}/shares`, {
      body: {},
      from,
      headers: { authorization: `Bearer ${reviewer.token}`, host: 'app.internal:3000', ...headers },
    });
    expect(res.status).toBe(201);
    return JSON.parse(res.body).url;
  }
  const forwarded = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  it('are ignored without TRUST_PROXY: share links use the Host header and the socket', async () => {
    expect(await shareUrl(freshLoopback(), forwarded)).toMatch(/^http:\/\/app\.internal:3000\/r\/sar_/);
  });

  it('are used from a trusted proxy', async () => {
    process.env.TRUST_PROXY = '1';
    expect(await shareUrl(freshLoopback(), forwarded)).toMatch(/^https:\/\/evil\.example\/r\/sar_/);
    // A proxy outside the list is not believed.
    process.env.TRUST_PROXY = '10.0.0.1';
    expect(await shareUrl(freshLoopback(), forwarded)).toMatch(/^http:\/\/app\.internal:3000\/r\/sar_/);
  });

  it('decide the Secure cookie flag only through a trusted proxy', async () => {
    const email = await emailOf((await testCaller('viewer')).id);
    const https = { 'x-forwarded-proto': 'https' };
    const untrusted = await signIn(email, PASSWORD, freshLoopback(), https);
    expect(untrusted.status).toBe(200);
    expect(String(untrusted.headers['set-cookie'])).not.toContain('Secure');
    process.env.TRUST_PROXY = '1';
    const trusted = await signIn(email, PASSWORD, freshLoopback(), https);
    expect(String(trusted.headers['set-cookie'])).toContain('; Secure');
  });

  it('let a cookie write through the same-origin check only when a trusted proxy forwarded the host', async () => {
    const viewer = await testCaller('viewer');
    const email = await emailOf(viewer.id);
    const cookie = String((await signIn(email, PASSWORD, freshLoopback())).headers['set-cookie']).split(
      ';',
    )[0];
    // A write whose Origin matches only the claimed X-Forwarded-Host: refused unless a proxy we trust set it.
    const write = (from: string) =>
      send(server.origin, '/api/v1/auth/password', {
        from,
        body: { current: 'not the password', password: 'a brand new password' },
        headers: {
          cookie: cookie as string,
          host: 'app.internal:3000',
          origin: 'https://audit.example.com',
          'x-forwarded-host': 'audit.example.com',
        },
      });
    expect((await write(freshLoopback())).status).toBe(403);
    expect(JSON.parse((await write(freshLoopback())).body).error.message).toMatch(/Cross-site/);
    process.env.TRUST_PROXY = '1';
    // Past the origin check, the wrong current password is what refuses it.
    expect(JSON.parse((await write(freshLoopback())).body).error.message).toMatch(/current password/);
  });
});

describe('failures are reserved before the password is checked', () => {
  it('lets 40 concurrent wrong passwords for one account evaluate only 5, and refuses the right one while locked', async () => {
    const email = await emailOf((await testCaller('viewer')).id);
    const from = freshLoopback();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => signIn(email, 'wrong password!', from)),
    );
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    // 401 = the password was verified and was wrong; 429 = refused before any verification.
    expect(count(401)).toBe(5);
    expect(count(429)).toBe(35);
    expect((await signIn(email, PASSWORD, freshLoopback())).status).toBe(429);
  });

  it('lets the right password in within the limit and starts the count again', async () => {
    const email = await emailOf((await testCaller('viewer')).id);
    const from = freshLoopback();
    for (let i = 0; i < 4; i++) expect((await signIn(email, 'wrong password!', from)).status).toBe(401);
    expect((await signIn(email, PASSWORD, from)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn(email, 'wrong password!', from)).status).toBe(401);
    expect((await signIn(email, PASSWORD, from)).status).toBe(429);
  });
});

describe('changing your password', () => {
  it('is throttled like sign-in: 5 wrong current passwords, then refused even with the right one', async () => {
    const viewer = await testCaller('viewer');
    const change = (current: string) =>
      send(server.origin, '/api/v1/auth/password', {
        from: freshLoopback(),
        body: { current, password: 'a brand new password' },
        headers: { authorization: `Bearer ${viewer.token}` },
      });
    const answers = await Promise.all(Array.from({ length: 12 }, () => change('not the password')));
    expect(answers.filter((a) => a.status === 403)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
    const locked = await change(PASSWORD);
    expect(locked.status).toBe(429);
    expect(JSON.parse(locked.body).error.message).toMatch(/try again in 15 minutes/);
    // The lock is on this user's password changes only: signing in still works.
    expect((await signIn(await emailOf(viewer.id), PASSWORD, freshLoopback())).status).toBe(200);
  });

  it('clears the count when the current password is right', async () => {
    const viewer = await testCaller('viewer');
    const change = (current: string, next = 'a brand new password') =>
      send(server.origin, '/api/v1/auth/password', {
        from: freshLoopback(),
        body: { current, password: next },
        headers: { authorization: `Bearer ${viewer.token}` },
      });
    for (let i = 0; i < 4; i++) expect((await change('not the password')).status).toBe(403);
    expect((await change(PASSWORD)).status).toBe(204);
    for (let i = 0; i < 4; i++) expect((await change('not the password')).status).toBe(403);
    expect((await change('a brand new password', 'a third password here')).status).toBe(204);
  });
});
