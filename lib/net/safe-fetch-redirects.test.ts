import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch } from './safe-fetch';
import { readAll, rejectionOf, startTestServer, type TestServer } from './test-server';
import { NetError, type SafeFetchOptions } from './types';

const local: SafeFetchOptions = { allowPrivateNetwork: true, timeoutMs: 2000, retries: 0 };

let server: TestServer;
let other: TestServer;

beforeAll(async () => {
  other = await startTestServer((req, res) => res.end(JSON.stringify(req.headers)));
  server = await startTestServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = url.pathname.match(/^\/chain\/(\d+)$/);
    if (hops) {
      const left = Number(hops[1]);
      if (left === 0) res.end('end of chain');
      // Each hop carries a body the client has to throw away.
      else res.writeHead(301, { location: `/chain/${left - 1}` }).end('moved'.repeat(1000));
    } else if (url.pathname === '/loop/a') res.writeHead(302, { location: '/loop/b' }).end();
    else if (url.pathname === '/loop/b') res.writeHead(307, { location: 'a?' }).end();
    else if (url.pathname === '/self') res.writeHead(302, { location: '/self#again' }).end();
    else if (url.pathname === '/dir/page') res.writeHead(303, { location: '../other/x?q=1' }).end();
    else if (url.pathname === '/other/x') res.end(`${req.method} ${req.url}`);
    else if (url.pathname === '/offsite') res.writeHead(308, { location: `${other.origin}/landing` }).end();
    else if (url.pathname === '/no-location') res.writeHead(302).end('stay');
    else if (url.pathname === '/bad-location') res.writeHead(302, { location: 'http://[oops/' }).end();
    else res.writeHead(404).end();
  });
});

afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});

async function netError(promise: Promise<unknown>): Promise<NetError> {
  const err = await rejectionOf(promise);
  expect(err).toBeInstanceOf(NetError);
  return err as NetError;
}

describe('safeFetch redirects', () => {
  it('follows 5 redirects by default and returns the chain', async () => {
    const res = await safeFetch(`${server.origin}/chain/5`, local);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${server.origin}/chain/0`);
    expect(res.redirects).toEqual(
      [5, 4, 3, 2, 1].map((n) => ({ url: `${server.origin}/chain/${n}`, status: 301 })),
    );
    expect((await readAll(res.body)).toString()).toBe('end of chain');
  });

  it('fails on the 6th redirect with too_many_redirects', async () => {
    const err = await netError(safeFetch(`${server.origin}/chain/6`, local));
    expect(err.code).toBe('too_many_redirects');
    expect(err.message).toContain(`${server.origin}/chain/6`);
  });

  it('honours a lower maxRedirects', async () => {
    expect((await netError(safeFetch(`${server.origin}/chain/2`, { ...local, maxRedirects: 1 }))).code).toBe(
      'too_many_redirects',
    );
  });

  it('detects a loop, including one that only differs by fragment', async () => {
    expect((await netError(safeFetch(`${server.origin}/loop/a`, local))).code).toBe('redirect_loop');
    expect((await netError(safeFetch(`${server.origin}/self`, local))).code).toBe('redirect_loop');
  });

  it('resolves a relative Location against the current URL and keeps the method', async () => {
    const res = await safeFetch(`${server.origin}/dir/page`, local);
    expect((await readAll(res.body)).toString()).toBe('GET /other/x?q=1');
    expect(res.redirects).toEqual([{ url: `${server.origin}/dir/page`, status: 303 }]);
  });

  it('drops credential headers when the redirect leaves the origin, keeps the rest', async () => {
    const res = await safeFetch(`${server.origin}/offsite`, {
      ...local,
      headers: { Authorization: 'Bearer t', Cookie: 'a=1', 'If-None-Match': '"v1"' },
    });
    const seen = JSON.parse((await readAll(res.body)).toString());
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen['if-none-match']).toBe('"v1"');
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer t');
  });

  it('with followRedirects false, returns the first redirect as the final response', async () => {
    const before = server.requests.length;
    const res = await safeFetch(`${server.origin}/chain/3`, { ...local, followRedirects: false });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/chain/2');
    expect(res.redirects).toEqual([]);
    res.body.destroy();
    expect(server.requests.length - before).toBe(1);
  });

  it('returns a redirect status without Location as the final response', async () => {
    const res = await safeFetch(`${server.origin}/no-location`, local);
    expect(res.status).toBe(302);
    expect((await readAll(res.body)).toString()).toBe('stay');
  });

  it('reports an unparseable Location as bad_url', async () => {
    expect((await netError(safeFetch(`${server.origin}/bad-location`, local))).code).toBe('bad_url');
  });

  it('closes every socket of a chain once the body is read', async () => {
    const before = server.connectionCount();
    const res = await safeFetch(`${server.origin}/chain/3`, local);
    await readAll(res.body);
    expect(server.connectionCount() - before).toBe(4);
    await expect.poll(() => server.openConnections(), { timeout: 1000, interval: 10 }).toBe(0);
  });
});
