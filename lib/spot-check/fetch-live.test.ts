import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import type { ResolvedAddress } from '@/lib/net/types';
import { checkLive, type LiveCheckOptions } from './fetch-live';

const quick: LiveCheckOptions = { timeoutMs: 2_000, retryFallbackMs: 10 };

let server: TestServer;
const attempts = new Map<string, number[]>();

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

beforeAll(async () => {
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  server = await startTestServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const seen = attempts.get(url.pathname) ?? [];
    seen.push(Date.now());
    attempts.set(url.pathname, seen);
    const html = { 'content-type': 'text/html; charset=utf-8' };
    const hops = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (hops) {
      const left = Number(hops[1]);
      if (left === 0) res.writeHead(200, html).end(page('End', '<p>end of chain</p>'));
      else res.writeHead(left % 2 ? 301 : 302, { location: `/chain/${left - 1}` }).end('moved');
      return;
    }
    switch (url.pathname) {
      case '/ok':
        return res
          .writeHead(200, html)
          .end(page(' Hello \n  world ', '<h1>Hi</h1><p>Some <b>bold</b> text</p>'));
      case '/loop/a':
        return res.writeHead(302, { location: '/loop/b' }).end();
      case '/loop/b':
        return res.writeHead(307, { location: `${server.origin}/loop/a#again` }).end();
      case '/gone':
        return res.writeHead(410, html).end(page('Gone', 'gone'));
      case '/missing':
        return res.writeHead(404, html).end(page('Not here', 'nothing'));
      case '/busy':
        // 429 with Retry-After: 1 once, then 200.
        if (seen.length === 1) return res.writeHead(429, { 'retry-after': '1' }).end();
        return res.writeHead(200, html).end(page('Busy no more', 'ok'));
      case '/busy-long': {
        // Asks for two minutes, as an HTTP date.
        const later = new Date(Date.now() + 120_000).toUTCString();
        if (seen.length === 1) return res.writeHead(429, { 'retry-after': later }).end();
        return res.writeHead(200, html).end(page('Patient', 'ok'));
      }
      case '/unavailable':
        if (seen.length === 1) return res.writeHead(503).end();
        return res.writeHead(200, html).end(page('Back', 'ok'));
      case '/always-busy':
        return res.writeHead(503, { 'retry-after': '0' }).end();
      case '/slow':
        setTimeout(() => res.writeHead(200, html).end(page('Slow', 'late')), 1_000);
        return;
      case '/noindex-header':
        return res
          .writeHead(200, { 'content-type': 'application/pdf', 'x-robots-tag': 'googlebot: noindex' })
          .end('%PDF');
      case '/noindex-other-bot':
        return res
          .writeHead(200, { ...html, 'x-robots-tag': 'otherbot: noindex, nofollow' })
          .end(page('x', 'y'));
      case '/noindex-meta':
        return res.writeHead(200, html).end(page('x', 'y', '<meta name="ROBOTS" content="index, NOINDEX">'));
      case '/noindex-googlebot':
        return res.writeHead(200, html).end(page('x', 'y', '<meta name="googlebot" content="none">'));
      case '/dir/canonical-tag':
        return res
          .writeHead(200, html)
          .end(
            page(
              'x',
              '<link rel="canonical" href="/in-body">',
              '<link rel="Canonical" href="../target?a=1">',
            ),
          );
      case '/canonical-header':
        return res
          .writeHead(200, {
            ...html,
            link: '<https://cdn.example/x.css>; rel=preload, </real>; rel="canonical"',
          })
          .end(page('x', 'y'));
      case '/head-differs':
        if (req.method === 'HEAD') return res.writeHead(404).end();
        return res.writeHead(200, html).end(page('Only GET', 'ok'));
      case '/huge': {
        res.writeHead(200, html);
        res.write(`<html><head><title>Big</title></head><body>`);
        const block = `<p>${'word '.repeat(200)}</p>`;
        for (let sent = 0; sent < 3 * 1024 * 1024; sent += block.length) res.write(block);
        return res.end(`<meta name="robots" content="noindex"></body></html>`);
      }
      case '/to-metadata':
        return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      case '/to-private':
        return res.writeHead(301, { location: `http://internal.example:${server.port}/ok` }).end();
      case '/bad-location':
        return res.writeHead(301, { location: 'http://[oops/' }).end();
      default:
        return res.writeHead(404).end();
    }
  });
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe('checkLive', () => {
  it('reads a 200 HTML page: title, visible text hash, timing, content type', async () => {
    const live = await checkLive(`${server.origin}/ok`, quick);
    expect(live).toMatchObject({
      finalStatus: 200,
      finalUrl: `${server.origin}/ok`,
      contentType: 'text/html; charset=utf-8',
      title: 'Hello world',
      noindex: false,
      canonical: null,
      truncated: false,
      retries: 0,
      error: null,
    });
    expect(live.chain).toEqual([{ url: `${server.origin}/ok`, status: 200, location: null }]);
    expect(live.textHash).toMatch(/^[0-9a-f]{64}$/);
    expect(live.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(live.checkedAt)).not.toBeNaN();
  });

  it('follows a redirect chain by hand and records every hop with its raw Location', async () => {
    const live = await checkLive(`${server.origin}/chain/3`, quick);
    expect(live.chain).toEqual([
      { url: `${server.origin}/chain/3`, status: 301, location: '/chain/2' },
      { url: `${server.origin}/chain/2`, status: 302, location: '/chain/1' },
      { url: `${server.origin}/chain/1`, status: 301, location: '/chain/0' },
      { url: `${server.origin}/chain/0`, status: 200, location: null },
    ]);
    expect(live).toMatchObject({ finalUrl: `${server.origin}/chain/0`, finalStatus: 200, title: 'End' });
  });

  it('follows 10 redirects, and stops at the 11th with too_many_redirects', async () => {
    expect((await checkLive(`${server.origin}/chain/10`, quick)).finalStatus).toBe(200);
    const live = await checkLive(`${server.origin}/chain/11`, quick);
    expect(live.error?.code).toBe('too_many_redirects');
    expect(live.chain).toHaveLength(11);
  });

  it('detects a loop (a fragment does not make a URL new) with each hop recorded', async () => {
    const live = await checkLive(`${server.origin}/loop/a`, quick);
    expect(live.error?.code).toBe('redirect_loop');
    expect(live.chain.map((h) => [h.status, h.location])).toEqual([
      [302, '/loop/b'],
      [307, `${server.origin}/loop/a#again`],
    ]);
    expect(live.finalStatus).toBe(307);
  });

  it('reports 404 and 410 as final statuses, not errors', async () => {
    expect(await checkLive(`${server.origin}/missing`, quick)).toMatchObject({
      finalStatus: 404,
      error: null,
    });
    expect(await checkLive(`${server.origin}/gone`, quick)).toMatchObject({
      finalStatus: 410,
      title: 'Gone',
    });
  });

  it('waits out Retry-After on a 429, then reads the 200', async () => {
    const live = await checkLive(`${server.origin}/busy`, quick);
    expect(live).toMatchObject({ finalStatus: 200, retries: 1, error: null, title: 'Busy no more' });
    const [first, second] = attempts.get('/busy') ?? [];
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(950);
  }, 15_000);

  it('caps a long Retry-After (an HTTP date) at maxRetryAfterMs', async () => {
    const startedAt = Date.now();
    const live = await checkLive(`${server.origin}/busy-long`, { ...quick, maxRetryAfterMs: 100 });
    expect(live).toMatchObject({ finalStatus: 200, retries: 1, title: 'Patient' });
    const [first, second] = attempts.get('/busy-long') ?? [];
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(90);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('retries a 503, and gives up after the bounded retries with rate_limited', async () => {
    expect(await checkLive(`${server.origin}/unavailable`, quick)).toMatchObject({
      finalStatus: 200,
      retries: 1,
    });
    const live = await checkLive(`${server.origin}/always-busy`, quick);
    expect(live).toMatchObject({ finalStatus: 503, retries: 2 });
    expect(live.error?.code).toBe('rate_limited');
    expect(attempts.get('/always-busy')).toHaveLength(3);
  });

  it('times out a slow answer', async () => {
    const live = await checkLive(`${server.origin}/slow`, { ...quick, timeoutMs: 200 });
    expect(live.error?.code).toBe('timeout');
    expect(live.finalStatus).toBeNull();
  });

  it('finds noindex in X-Robots-Tag for googlebot, ignoring other crawlers', async () => {
    const pdf = await checkLive(`${server.origin}/noindex-header`, quick);
    expect(pdf).toMatchObject({ noindex: true, noindexSources: ['header'], contentType: 'application/pdf' });
    expect(pdf.title).toBeNull();
    expect((await checkLive(`${server.origin}/noindex-other-bot`, quick)).noindex).toBe(false);
  });

  it('finds noindex in <meta name=robots> and <meta name=googlebot content=none>', async () => {
    expect(await checkLive(`${server.origin}/noindex-meta`, quick)).toMatchObject({
      noindex: true,
      noindexSources: ['meta:robots'],
    });
    expect((await checkLive(`${server.origin}/noindex-googlebot`, quick)).noindexSources).toEqual([
      'meta:googlebot',
    ]);
  });

  it('reads the canonical from <head> (relative, resolved) and from the Link header', async () => {
    expect(await checkLive(`${server.origin}/dir/canonical-tag`, quick)).toMatchObject({
      canonical: `${server.origin}/target?a=1`,
      canonicalSource: 'link',
    });
    expect(await checkLive(`${server.origin}/canonical-header`, quick)).toMatchObject({
      canonical: `${server.origin}/real`,
      canonicalSource: 'header',
    });
  });

  it('sends only GET, so a server answering HEAD differently is read as GET sees it', async () => {
    const before = server.requests.length;
    const live = await checkLive(`${server.origin}/head-differs`, quick);
    expect(live).toMatchObject({ finalStatus: 200, title: 'Only GET' });
    expect(server.requests.slice(before).map((r) => r.method)).toEqual(['GET']);
  });

  it('reads at most 2 MiB of a 3 MiB page and says so', async () => {
    const live = await checkLive(`${server.origin}/huge`, quick);
    expect(live).toMatchObject({ finalStatus: 200, title: 'Big', truncated: true, error: null });
    // The noindex after the cut is unseen.
    expect(live.noindex).toBe(false);
    const small = await checkLive(`${server.origin}/huge`, { ...quick, maxBodyBytes: 8 * 1024 * 1024 });
    expect(small).toMatchObject({ truncated: false, noindex: true });
  }, 15_000);

  it('refuses a redirect to the metadata address, after recording the hop that sent it', async () => {
    const live = await checkLive(`${server.origin}/to-metadata`, quick);
    expect(live.error?.code).toBe('blocked_address');
    expect(live.chain).toEqual([
      {
        url: `${server.origin}/to-metadata`,
        status: 302,
        location: 'http://169.254.169.254/latest/meta-data/',
      },
    ]);
    expect(live.finalUrl).toBe('http://169.254.169.254/latest/meta-data/');
  });

  it('refuses a redirect to a private address when the guard is on (every hop is vetted)', async () => {
    const PUBLIC = '93.184.216.34';
    const dialled: string[] = [];
    const live = await checkLive(`http://public.example:${server.port}/to-private`, {
      ...quick,
      allowPrivateNetwork: false,
      allowedPorts: [server.port],
      testHooks: {
        resolve: async (host) => [{ address: host === 'public.example' ? PUBLIC : '10.1.2.3', family: 4 }],
        dial: (checked: ResolvedAddress) => {
          dialled.push(checked.address);
          return { address: '127.0.0.1', family: 4 };
        },
      },
    });
    expect(live.error?.code).toBe('blocked_address');
    expect(live.chain.map((h) => h.status)).toEqual([301]);
    // The refused hop never reached a socket.
    expect(dialled).toEqual([PUBLIC]);
  });

  it('turns a bad URL or an unreadable Location into an error, never a throw', async () => {
    expect((await checkLive('not a url', quick)).error?.code).toBe('bad_url');
    const live = await checkLive(`${server.origin}/bad-location`, quick);
    expect(live.error?.code).toBe('bad_url');
    expect(live.chain).toHaveLength(1);
  });

  it('identifies itself with the configured User-Agent', async () => {
    const before = server.requests.length;
    await checkLive(`${server.origin}/ok`, { ...quick, userAgent: 'SpotBot/9' });
    expect(server.requests[before]?.headers['user-agent']).toBe('SpotBot/9');
  });
});
