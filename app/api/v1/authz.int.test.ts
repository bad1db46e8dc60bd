// Every API endpoint, called as anonymous, viewer, reviewer and admin: 401 without credentials, 403 for
// a role below the endpoint's, and the endpoint's own exact answer for the others. Plus sessions:
// sign-in without account enumeration, throttling, cross-site refusal, sign-out everywhere, and the
// one-time setup.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { publicOrigin } from '@/lib/auth/request';
import { allows, ROLES, type Role } from '@/lib/auth/roles';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import * as cancel from './audits/[id]/cancel/route';
import * as addCrawl from './audits/[id]/crawl/route';
import * as preview from './audits/[id]/decisions/preview/route';
import * as decisions from './audits/[id]/decisions/route';
import * as exportRoute from './audits/[id]/export/route';
import * as finding from './audits/[id]/findings/[findingId]/route';
import * as byFile from './audits/[id]/findings/by-file/route';
import * as reasons from './audits/[id]/findings/reasons/route';
import * as findings from './audits/[id]/findings/route';
import * as audit from './audits/[id]/route';
import * as shares from './audits/[id]/shares/route';
import * as sitemaps from './audits/[id]/sitemaps/route';
import * as audits from './audits/route';
import * as login from './auth/login/route';
import * as logout from './auth/logout/route';
import * as logoutAll from './auth/logout-all/route';
import * as me from './auth/me/route';
import * as password from './auth/password/route';
import * as setup from './setup/route';
import * as share from './shares/[id]/route';
import * as token from './tokens/[id]/route';
import * as tokens from './tokens/route';
import * as user from './users/[id]/route';
import * as users from './users/route';

afterAll(() => stopBoss());

type Handler = (request: Request, context: never) => Promise<Response>;
const id = randomUUID();
const params = (p: Record<string, string>) => ({ params: Promise.resolve(p) }) as never;

// [method, path, handler, context, least role, status for that role and above]. The audit, share, user
// and token ids exist nowhere and bodies are empty, so an allowed caller gets the endpoint's own answer
// to that: the status is exact, so that a role check passing on to a crash (500) fails here.
const ENDPOINTS: [string, string, Handler, never, Role, number][] = [
  ['GET', '/api/v1/audits', audits.GET, undefined as never, 'viewer', 200],
  ['POST', '/api/v1/audits', audits.POST, undefined as never, 'reviewer', 400],
  ['GET', `/api/v1/audits/${id}`, audit.GET, params({ id }), 'viewer', 404],
  ['DELETE', `/api/v1/audits/${id}`, audit.DELETE, params({ id }), 'admin', 404],
  ['POST', `/api/v1/audits/${id}/cancel`, cancel.POST, params({ id }), 'reviewer', 404],
  ['POST', `/api/v1/audits/${id}/crawl`, addCrawl.POST, params({ id }), 'reviewer', 404],
  ['GET', `/api/v1/audits/${id}/sitemaps`, sitemaps.GET, params({ id }), 'viewer', 404],
  ['GET', `/api/v1/audits/${id}/findings?list=prune`, findings.GET, params({ id }), 'viewer', 404],
  ['GET', `/api/v1/audits/${id}/findings/by-file`, byFile.GET, params({ id }), 'viewer', 404],
  ['GET', `/api/v1/audits/${id}/findings/reasons?list=prune`, reasons.GET, params({ id }), 'viewer', 404],
  ['GET', `/api/v1/audits/${id}/findings/1`, finding.GET, params({ id, findingId: '1' }), 'viewer', 404],
  ['GET', `/api/v1/audits/${id}/export?list=prune`, exportRoute.GET, params({ id }), 'viewer', 404],
  ['POST', `/api/v1/audits/${id}/decisions`, decisions.POST, params({ id }), 'reviewer', 400],
  [
    'GET',
    `/api/v1/audits/${id}/decisions/preview?list=prune&decision=approved`,
    preview.GET,
    params({ id }),
    'reviewer',
    404,
  ],
  ['GET', `/api/v1/audits/${id}/shares`, shares.GET, params({ id }), 'reviewer', 404],
  ['POST', `/api/v1/audits/${id}/shares`, shares.POST, params({ id }), 'reviewer', 404],
  ['DELETE', `/api/v1/shares/${id}`, share.DELETE, params({ id }), 'reviewer', 404],
  ['GET', '/api/v1/users', users.GET, undefined as never, 'admin', 200],
  ['POST', '/api/v1/users', users.POST, undefined as never, 'admin', 400],
  ['PATCH', `/api/v1/users/${id}`, user.PATCH, params({ id }), 'admin', 404],
  ['DELETE', `/api/v1/users/${id}`, user.DELETE, params({ id }), 'admin', 404],
  ['GET', '/api/v1/tokens', tokens.GET, undefined as never, 'viewer', 200],
  ['POST', '/api/v1/tokens', tokens.POST, undefined as never, 'viewer', 400],
  ['DELETE', `/api/v1/tokens/${id}`, token.DELETE, params({ id }), 'viewer', 404],
  ['GET', '/api/v1/auth/me', me.GET, undefined as never, 'viewer', 200],
  ['POST', '/api/v1/auth/logout', logout.POST, undefined as never, 'viewer', 204],
  ['POST', '/api/v1/auth/logout-all', logoutAll.POST, undefined as never, 'viewer', 200],
  ['POST', '/api/v1/auth/password', password.POST, undefined as never, 'viewer', 400],
];

const callers = {
  viewer: await testCaller('viewer'),
  reviewer: await testCaller('reviewer'),
  admin: await testCaller('admin'),
};

const origin = 'http://localhost';
const init = (method: string): RequestInit =>
  method === 'GET' ? { method } : { method, body: '{}', headers: { 'content-type': 'application/json' } };

describe('every endpoint needs a session or a token, and the right role', () => {
  const cases = ENDPOINTS.flatMap(([method, path, handler, context, least, allowed]) =>
    (['anonymous', ...ROLES] as const).map((who) => ({
      method,
      path,
      route: path.replaceAll(id, '{id}'),
      handler,
      context,
      least,
      allowed,
      who,
    })),
  );
  it.each(cases)(
    '$method $route as $who',
    async ({ method, path, handler, context, least, allowed, who }) => {
      const request =
        who === 'anonymous'
          ? new Request(origin + path, init(method))
          : callers[who].request(origin + path, init(method));
      const { status } = await handler(request, context);
      if (who === 'anonymous') expect(status).toBe(401);
      else if (!allows(who, least)) expect(status).toBe(403);
      else expect(status).toBe(allowed);
    },
  );

  it('refuses a revoked token, a malformed header and an unknown token', async () => {
    const caller = await testCaller('viewer');
    const ok = await me.GET(caller.request(`${origin}/api/v1/auth/me`), undefined as never);
    expect(ok.status).toBe(200);
    const { items } = await (
      await tokens.GET(caller.request(`${origin}/api/v1/tokens`), undefined as never)
    ).json();
    await token.DELETE(
      caller.request(`${origin}/api/v1/tokens/${items[0].id}`, { method: 'DELETE' }),
      params({ id: items[0].id }),
    );
    expect((await me.GET(caller.request(`${origin}/api/v1/auth/me`), undefined as never)).status).toBe(401);
    // A share link's token opens its report page, never the API.
    for (const authorization of ['Bearer', 'Basic abc', 'Bearer sat_unknown', 'Bearer sar_unknown']) {
      const res = await me.GET(
        new Request(`${origin}/api/v1/auth/me`, { headers: { authorization } }),
        undefined as never,
      );
      expect(res.status).toBe(401);
    }
  });
});

async function signIn(email: string, password: string, ip = '203.0.113.7') {
  return login.POST(
    new Request(`${origin}/api/v1/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email, password }),
      headers: { 'content-type': 'application/json', origin, host: 'localhost', 'x-forwarded-for': ip },
    }),
    undefined as never,
  );
}

const cookieOf = (res: Response) => (res.headers.get('set-cookie') ?? '').split(';')[0] as string;

describe('sessions', () => {
  it('signs in with a cookie that is httpOnly and SameSite=Lax, and says the same for a wrong password and an unknown account', async () => {
    const reviewer = callers.reviewer;
    const email = (await pool().query('SELECT email FROM users WHERE id = $1', [reviewer.id])).rows[0].email;
    const ok = await signIn(email, 'a long enough password');
    expect(ok.status).toBe(200);
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sa_session=sa_[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Expires=/);
    expect(cookie).not.toContain('Secure');

    const wrong = await signIn(email, 'not the password', '203.0.113.8');
    const unknown = await signIn(`${randomUUID()}@test.example`, 'whatever it is', '203.0.113.9');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('marks the cookie Secure behind https', async () => {
    const caller = await testCaller('viewer');
    const email = (await pool().query('SELECT email FROM users WHERE id = $1', [caller.id])).rows[0].email;
    const res = await login.POST(
      new Request('https://audit.example/api/v1/auth/login', {
        method: 'POST',
        body: JSON.stringify({ email, password: 'a long enough password' }),
        headers: { 'content-type': 'application/json' },
      }),
      undefined as never,
    );
    expect(res.headers.get('set-cookie')).toContain('; Secure');
  });

  it('locks an account after 5 failures, for existing and unknown accounts alike', async () => {
    const caller = await testCaller('viewer');
    const email = (await pool().query('SELECT email FROM users WHERE id = $1', [caller.id])).rows[0].email;
    const ghost = `${randomUUID()}@test.example`;
    for (let i = 0; i < 5; i++) {
      expect((await signIn(email, 'wrong password!', `198.51.100.${i}`)).status).toBe(401);
      expect((await signIn(ghost, 'wrong password!', `198.51.100.${i}`)).status).toBe(401);
    }
    const locked = await signIn(email, 'a long enough password', '198.51.100.99');
    const lockedGhost = await signIn(ghost, 'a long enough password', '198.51.100.99');
    expect(locked.status).toBe(429);
    expect(lockedGhost.status).toBe(429);
    expect((await locked.json()).error.message).toMatch(/try again in 15 minutes/);
  });

  // The per-address limit (30) needs the socket's address, which only a real HTTP request has:
  // ./auth/sign-in-limits.int.test.ts.

  it('accepts a cookie for reads, refuses cross-site writes, and signs out everywhere', async () => {
    const caller = await testCaller('reviewer');
    const email = (await pool().query('SELECT email FROM users WHERE id = $1', [caller.id])).rows[0].email;
    const first = cookieOf(await signIn(email, 'a long enough password', '192.0.2.60'));
    const second = cookieOf(await signIn(email, 'a long enough password', '192.0.2.60'));
    const withCookie = (cookie: string, method = 'GET', from?: string) =>
      new Request(`${origin}/api/v1/auth/logout-all`, {
        method,
        headers: { cookie, host: 'localhost', ...(from ? { origin: from } : {}) },
      });
    expect((await me.GET(withCookie(first), undefined as never)).status).toBe(200);
    expect(
      (await logoutAll.POST(withCookie(first, 'POST', 'https://evil.example'), undefined as never)).status,
    ).toBe(403);
    expect((await logoutAll.POST(withCookie(first, 'POST'), undefined as never)).status).toBe(403);
    const out = await logoutAll.POST(withCookie(first, 'POST', origin), undefined as never);
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ sessions: 2 });
    expect((await me.GET(withCookie(second), undefined as never)).status).toBe(401);
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const res = await login.POST(
      new Request(`${origin}/api/v1/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ email: 'a@test.example', password: 'whatever it is' }),
        headers: { 'content-type': 'application/json', origin: 'https://evil.example', host: 'localhost' },
      }),
      undefined as never,
    );
    expect(res.status).toBe(403);
  });

  it('changes your own password only with the current one, and signs out your other browsers', async () => {
    const caller = await testCaller('viewer');
    const email = (await pool().query('SELECT email FROM users WHERE id = $1', [caller.id])).rows[0].email;
    const here = cookieOf(await signIn(email, 'a long enough password', '192.0.2.70'));
    const elsewhere = cookieOf(await signIn(email, 'a long enough password', '192.0.2.70'));
    const change = (body: object) =>
      password.POST(
        new Request(`${origin}/api/v1/auth/password`, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json', cookie: here, host: 'localhost', origin },
        }),
        undefined as never,
      );
    expect((await change({ current: 'not the password', password: 'a brand new password' })).status).toBe(
      403,
    );
    expect((await change({ current: 'a long enough password', password: 'short' })).status).toBe(400);
    expect(
      (await change({ current: 'a long enough password', password: 'a brand new password' })).status,
    ).toBe(204);
    const session = (cookie: string) =>
      me.GET(new Request(`${origin}/api/v1/auth/me`, { headers: { cookie } }), undefined as never);
    expect((await session(here)).status).toBe(200);
    expect((await session(elsewhere)).status).toBe(401);
    expect((await signIn(email, 'a long enough password', '192.0.2.71')).status).toBe(401);
    expect((await signIn(email, 'a brand new password', '192.0.2.71')).status).toBe(200);
  });

  it('builds links on the address people use: PUBLIC_URL, else the Host header (a trusted proxy: ./auth/sign-in-limits)', () => {
    const at = (headers: Record<string, string>) => new Request('http://localhost:3000/x', { headers });
    expect(publicOrigin(at({ host: '127.0.0.1:3217' }))).toBe('http://127.0.0.1:3217');
    // Anyone can send X-Forwarded-*: without a proxy TRUST_PROXY trusts, they are not believed.
    expect(
      publicOrigin(
        at({ host: '10.0.0.5', 'x-forwarded-host': 'audit.example.com', 'x-forwarded-proto': 'https' }),
      ),
    ).toBe('http://10.0.0.5');
    process.env.PUBLIC_URL = 'https://seo.example.org/';
    try {
      expect(publicOrigin(at({ host: '127.0.0.1:3217' }))).toBe('https://seo.example.org');
    } finally {
      delete process.env.PUBLIC_URL;
    }
  });

  it('offers setup only while there is no user', async () => {
    const res = await setup.POST(
      new Request(`${origin}/api/v1/setup`, {
        method: 'POST',
        body: JSON.stringify({ email: 'x@test.example', name: 'X', password: 'a long enough password' }),
        headers: { 'content-type': 'application/json' },
      }),
      undefined as never,
    );
    expect(res.status).toBe(404);
  });
});
