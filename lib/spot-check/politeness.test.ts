import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { LaneRegistry, runChecks } from './politeness';

const check = { timeoutMs: 5_000, retryFallbackMs: 10 };

beforeAll(() => {
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

function site(robots: (res: http.ServerResponse) => void, delayMs = 0): Promise<TestServer> {
  return startTestServer((req, res) => {
    if (req.url === '/robots.txt') return robots(res);
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title>`),
      delayMs,
    );
  });
}

function paths(server: TestServer): string[] {
  return server.requests.map((r) => r.url);
}

describe('runChecks and robots.txt', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await site((res) =>
      res.end('User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n'),
    );
  });
  afterAll(() => server.close());

  it('fetches robots.txt once per host, refuses disallowed URLs without requesting them', async () => {
    server.requests.length = 0;
    const urls = ['/a', '/private/x', '/b', '/private'].map((p) => `${server.origin}${p}`);
    const results = await runChecks(urls, { check });
    expect(results.map((r) => r.error?.code ?? r.finalStatus)).toEqual([
      200,
      'robots_disallowed',
      200,
      'robots_disallowed',
    ]);
    expect(results[1]?.error?.message).toContain('robots.txt disallows');
    expect(results[1]?.chain).toEqual([]);
    expect(paths(server).sort()).toEqual(['/a', '/b', '/robots.txt']);
  });

  it('matches the User-Agent token: a group for another bot does not apply', async () => {
    const [own] = await runChecks([`${server.origin}/a`], { check: { ...check, userAgent: 'OtherBot/2.0' } });
    expect(own?.error?.code).toBe('robots_disallowed');
  });

  it('fetches disallowed URLs, and no robots.txt, when the run overrides robots.txt', async () => {
    server.requests.length = 0;
    const results = await runChecks([`${server.origin}/private/x`], { check, ignoreRobots: true });
    expect(results[0]?.finalStatus).toBe(200);
    expect(paths(server)).toEqual(['/private/x']);
  });

  it('allows everything when robots.txt is 404, disallows everything when it answers 5xx', async () => {
    const missing = await site((res) => res.writeHead(404).end());
    const broken = await site((res) => res.writeHead(500).end());
    try {
      const [ok] = await runChecks([`${missing.origin}/x`], { check });
      expect(ok?.finalStatus).toBe(200);
      const [refused] = await runChecks([`${broken.origin}/x`], { check });
      expect(refused?.error?.code).toBe('robots_disallowed');
      expect(refused?.error?.message).toContain('answered 500');
      // Tried twice (one retry), the page itself never.
      expect(paths(broken)).toEqual(['/robots.txt', '/robots.txt']);
    } finally {
      await Promise.all([missing.close(), broken.close()]);
    }
  }, 15_000);
});

describe('runChecks politeness', () => {
  it('keeps 2,000 checks over 50 hosts within 20 at once and 2 per host, counted at the servers', async () => {
    let overall = 0;
    let maxOverall = 0;
    const perHostMax: number[] = [];
    const servers = await Promise.all(
      Array.from({ length: 50 }, (_, host) => {
        let active = 0;
        perHostMax[host] = 0;
        return startTestServer((req, res) => {
          overall++;
          active++;
          maxOverall = Math.max(maxOverall, overall);
          perHostMax[host] = Math.max(perHostMax[host] ?? 0, active);
          res.on('close', () => {
            overall--;
            active--;
          });
          if (req.url === '/robots.txt') return void res.writeHead(404).end();
          setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title>'), 3);
        });
      }),
    );
    try {
      // Half spread over all 50 hosts, half over 5 of them: when only those 5 have work left, the
      // per-host limit is what holds them back.
      const urls = Array.from(
        { length: 2_000 },
        (_, i) => `${servers[i % (i < 1_000 ? 50 : 5)]?.origin}/page/${i}`,
      );
      const seen: number[] = [];
      const startedAt = Date.now();
      const results = await runChecks(urls, { check, onProgress: ({ done }) => seen.push(done) });
      expect(Date.now() - startedAt).toBeLessThan(15_000);
      expect(results.every((r, i) => r.finalStatus === 200 && r.url === urls[i])).toBe(true);
      expect(seen).toEqual(Array.from({ length: 2_000 }, (_, i) => i + 1));
      expect(maxOverall).toBeLessThanOrEqual(20);
      expect(Math.max(...perHostMax)).toBeLessThanOrEqual(2);
      // Not vacuous: the limits were reached, not merely respected by a slow trickle.
      expect(maxOverall).toBe(20);
      expect(Math.max(...perHostMax)).toBe(2);
      // robots.txt once per host.
      for (const s of servers) expect(s.requests.filter((r) => r.url === '/robots.txt')).toHaveLength(1);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  }, 30_000);

  it('spaces request starts on a host by the per-host delay', async () => {
    const starts: number[] = [];
    const server = await startTestServer((_req, res) => {
      starts.push(Date.now());
      res.end('');
    });
    try {
      const urls = Array.from({ length: 4 }, (_, i) => `${server.origin}/${i}`);
      await runChecks(urls, { check, hostDelayMs: 100, ignoreRobots: true });
      const gaps = starts.slice(1).map((t, i) => t - (starts[i] ?? 0));
      expect(gaps).toHaveLength(3);
      // Gaps are measured at the server: the first request's own setup (first socket) eats a little of
      // its gap, so the span is checked, and each gap loosely.
      expect(
        gaps.every((gap) => gap >= 60),
        `gaps ${gaps}`,
      ).toBe(true);
      expect((starts[3] ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(270);
    } finally {
      await server.close();
    }
  });

  it('pauses the whole host for a 429 Retry-After, then retries', async () => {
    const starts: { url: string; at: number }[] = [];
    let first = true;
    const server = await startTestServer((req, res) => {
      starts.push({ url: req.url ?? '', at: Date.now() });
      if (req.url === '/limited' && first) {
        first = false;
        return void res.writeHead(429, { 'retry-after': '1' }).end();
      }
      setTimeout(() => res.end(''), req.url === '/limited' ? 0 : 50);
    });
    try {
      const urls = ['/limited', '/later-1', '/later-2'].map((p) => `${server.origin}${p}`);
      const results = await runChecks(urls, { check, perHost: 1, ignoreRobots: true });
      expect(results.map((r) => [r.finalStatus, r.retries])).toEqual([
        [200, 1],
        [200, 0],
        [200, 0],
      ]);
      // Nothing reached the host during the second it asked for.
      const [limited, ...rest] = starts;
      for (const s of rest) expect(s.at - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950);
    } finally {
      await server.close();
    }
  }, 15_000);

  it('stops on abort: no check starts after it, and the run rejects', async () => {
    const server = await site((res) => res.writeHead(404).end(), 20);
    try {
      const controller = new AbortController();
      const urls = Array.from({ length: 100 }, (_, i) => `${server.origin}/p/${i}`);
      const run = runChecks(urls, {
        check,
        signal: controller.signal,
        onProgress: ({ done }) => {
          if (done === 5) controller.abort();
        },
      });
      await expect(run).rejects.toThrow();
      const requested = server.requests.length;
      // At most the in-flight ones (2 per host) beyond the 5 done, plus robots.txt.
      expect(requested).toBeLessThanOrEqual(1 + 5 + 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(server.requests.length).toBe(requested);
    } finally {
      await server.close();
    }
  });
});

describe('runChecks budgets and hosts that keep refusing', () => {
  const pages = (server: TestServer) => server.requests.filter((r) => r.url !== '/robots.txt').length;

  it('gives up a host after 3 of its URLs in a row answer 429: the rest end as errors saying so', async () => {
    // No Retry-After: each refusal makes the run wait (retryFallbackMs, 10 ms here).
    const refusing = await startTestServer((_req, res) => res.writeHead(429).end());
    const healthy = await startTestServer((_req, res) => res.end('<title>ok</title>'));
    try {
      const urls = [
        ...Array.from({ length: 8 }, (_, i) => `${refusing.origin}/p/${i}`),
        `${healthy.origin}/fine`,
      ];
      const results = await runChecks(urls, { check, ignoreRobots: true, budget: { hostRefusals: 3 } });
      const refused = results.slice(0, 8);
      // The first two (2 at a time per host) used their own retries and end rate limited; the third URL
      // refused gives the host up, and every URL after it ends without being requested.
      expect(refused.map((r) => r.error?.code)).toEqual([
        'rate_limited',
        'rate_limited',
        ...Array(6).fill('host_refused'),
      ]);
      for (const r of refused.slice(2)) {
        expect(r.error?.message).toBe(
          `${new URL(refusing.origin).host} kept refusing: 3 URLs in a row answered 429 or 503 (the last 429, ` +
            'with no Retry-After); the run gave the host up and did not wait it out',
        );
      }
      // 2 URLs × 3 attempts, then the third URL and the one in flight beside it: not 8 × 3.
      expect(pages(refusing)).toBeLessThanOrEqual(8);
      expect(results[8]).toMatchObject({ finalStatus: 200, error: null });
    } finally {
      await Promise.all([refusing.close(), healthy.close()]);
    }
  });

  it("keeps a host whose other URLs answer: a rate-limited page stays that page's answer", async () => {
    const server = await startTestServer((req, res) => {
      if (req.url?.startsWith('/limited/')) return void res.writeHead(429).end();
      res.end('<title>ok</title>');
    });
    try {
      const urls = Array.from({ length: 8 }, (_, i) => `${server.origin}/${i % 2 ? 'fine' : 'limited'}/${i}`);
      const results = await runChecks(urls, { check, perHost: 1, ignoreRobots: true });
      expect(results.map((r) => r.error?.code ?? r.finalStatus)).toEqual(
        urls.map((u) => (u.includes('/limited/') ? 'rate_limited' : 200)),
      );
      expect(results[0]).toMatchObject({ finalStatus: 429, retries: 2 });
    } finally {
      await server.close();
    }
  });

  it('does not count a refusal that asks for no wait: each page is judged on its own retries', async () => {
    const server = await startTestServer((_req, res) => res.writeHead(503, { 'retry-after': '0' }).end());
    try {
      const urls = Array.from({ length: 5 }, (_, i) => `${server.origin}/p/${i}`);
      const results = await runChecks(urls, { check, ignoreRobots: true });
      expect(results.map((r) => r.error?.code)).toEqual(Array(5).fill('rate_limited'));
      expect(pages(server)).toBe(15);
    } finally {
      await server.close();
    }
  });

  it('gives a host up at once when its Retry-After is longer than a run waits, without waiting', async () => {
    const server = await startTestServer((_req, res) => res.writeHead(503, { 'retry-after': '120' }).end());
    try {
      const urls = Array.from({ length: 5 }, (_, i) => `${server.origin}/p/${i}`);
      const results = await runChecks(urls, { check, perHost: 1, ignoreRobots: true });
      expect(results.map((r) => r.error?.code)).toEqual(Array(5).fill('host_refused'));
      expect(results[0]?.error?.message).toContain(
        'answered 503 with Retry-After 2 min, longer than the 30 s a run waits',
      );
      expect(results[0]?.chain).toEqual([{ url: urls[0], status: 503, location: null }]);
      expect(pages(server)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('gives a host up when its Retry-After is longer than the time the run has left', async () => {
    const server = await startTestServer((_req, res) => res.writeHead(429, { 'retry-after': '20' }).end());
    const now = 0; // the run's clock stands still: only the Retry-After against the budget decides
    try {
      const urls = Array.from({ length: 3 }, (_, i) => `${server.origin}/p/${i}`);
      const results = await runChecks(urls, {
        check,
        perHost: 1,
        ignoreRobots: true,
        budget: { timeMs: 15_000, now: () => now },
      });
      expect(results.map((r) => r.error?.code)).toEqual(Array(3).fill('host_refused'));
      expect(results[0]?.error?.message).toContain('longer than the 15 s left in the run');
    } finally {
      await server.close();
    }
  });

  it('ends the URLs past the request budget as errors, robots.txt and retries counted', async () => {
    let first = true;
    const server = await site((res) => res.writeHead(404).end());
    const limited = await startTestServer((_req, res) => {
      if (first) {
        first = false;
        return void res.writeHead(429, { 'retry-after': '0' }).end();
      }
      res.end('<title>ok</title>');
    });
    try {
      const urls = ['/a', '/b', '/c', '/d'].map((p) => `${server.origin}${p}`);
      // robots.txt + /a + /b: 3 requests.
      const results = await runChecks(urls, { check, perHost: 1, budget: { requests: 3 } });
      expect(results.map((r) => r.error?.code ?? r.finalStatus)).toEqual([
        200,
        200,
        'budget_spent',
        'budget_spent',
      ]);
      expect(results[2]?.error?.message).toBe(
        "the run's budget of 3 requests was spent before this URL was checked",
      );
      expect(server.requests).toHaveLength(3);
      // A retry is a request: 429 then 200 spends 2.
      const retried = await runChecks([`${limited.origin}/x`, `${limited.origin}/y`], {
        check,
        perHost: 1,
        ignoreRobots: true,
        budget: { requests: 2 },
      });
      expect(retried.map((r) => r.error?.code ?? r.finalStatus)).toEqual([200, 'budget_spent']);
    } finally {
      await Promise.all([server.close(), limited.close()]);
    }
  });

  it('ends the URLs past the time budget as errors, read on the run clock (no real waiting)', async () => {
    let now = 0;
    const server = await startTestServer((_req, res) => {
      now += 60_000; // every answer "takes" a minute
      res.end('<title>ok</title>');
    });
    try {
      const urls = Array.from({ length: 5 }, (_, i) => `${server.origin}/p/${i}`);
      const results = await runChecks(urls, {
        check,
        concurrency: 1,
        ignoreRobots: true,
        budget: { timeMs: 100_000, now: () => now },
      });
      expect(results.map((r) => r.error?.code ?? r.finalStatus)).toEqual([
        200,
        200,
        'budget_spent',
        'budget_spent',
        'budget_spent',
      ]);
      expect(results[4]?.error?.message).toBe(
        "the run's time budget of 100 s was spent before this URL was checked",
      );
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('counts the time budget from the run start it is given (a resumed run has only what is left)', async () => {
    const server = await startTestServer((_req, res) => res.end('<title>ok</title>'));
    try {
      const urls = [`${server.origin}/a`, `${server.origin}/b`];
      const results = await runChecks(urls, {
        check,
        ignoreRobots: true,
        budget: { timeMs: 100_000, startedAt: -100_000, now: () => 0 },
      });
      expect(results.map((r) => r.error?.code)).toEqual(['budget_spent', 'budget_spent']);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('shares a host between runs round robin: a 1-URL run is not queued behind a big one', async () => {
    const order: string[] = [];
    const server = await startTestServer((req, res) => {
      order.push(req.url ?? '');
      setTimeout(() => res.end('<title>ok</title>'), 5);
    });
    try {
      const lanes = new LaneRegistry();
      const big = runChecks(
        Array.from({ length: 20 }, (_, i) => `${server.origin}/big/${i}`),
        { check, perHost: 1, ignoreRobots: true, lanes },
      );
      const small = runChecks([`${server.origin}/small`], { check, perHost: 1, ignoreRobots: true, lanes });
      await Promise.all([big, small]);
      expect(order).toHaveLength(21);
      // One request at a time to the host across both runs, and the small run's within the first few.
      expect(order.indexOf('/small')).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});
