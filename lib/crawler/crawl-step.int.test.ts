// The audit's crawl_site step for real: the crawl site (lib/test-support/crawl-site.ts) on two loopback
// hosts, the plain fetcher, robots.txt, the Postgres frontier and the reconciliation after it. What each
// page records is checked against the site's own facts, politeness against the server's request log.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as runAgain } from '@/app/api/v1/sites/[id]/runs/route';
import { cancelAudit } from '@/lib/audit-runs/service';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import type { TAuditOptions } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { DEFAULT_USER_AGENT } from '@/lib/net/options';
import { stopBoss } from '@/lib/queue/queue';
import { testCaller } from '@/lib/test-support/auth';
import { CRAWL_SITE, type CrawlSite, startCrawlSite } from '@/lib/test-support/crawl-site';
import { MULTIPART, multipartBody, part } from '@/lib/test-support/multipart';
import { runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import type { CrawlerSettings, CrawlProgress } from './types';

const saved = { private: process.env.ALLOW_PRIVATE_NETWORK, stale: process.env.JOB_STALE_SECONDS };
const sites: CrawlSite[] = [];

beforeAll(() => {
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  // Heartbeats every 250 ms: a cancel reaches the crawl that fast.
  process.env.JOB_STALE_SECONDS = '1';
});

afterEach(async () => {
  for (const site of sites.splice(0)) await site.close();
});

afterAll(async () => {
  for (const [name, value] of [
    ['ALLOW_PRIVATE_NETWORK', saved.private],
    ['JOB_STALE_SECONDS', saved.stale],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await stopBoss();
});

async function site(spec: Parameters<typeof startCrawlSite>[0] = {}): Promise<CrawlSite> {
  const started = await startCrawlSite(spec);
  sites.push(started);
  return started;
}

/** Settings as the API stores them: the defaults, a start URL in site mode only. */
function settingsFor(origin: string, given: Partial<CrawlerSettings>) {
  const { startUrl, ...rest } = {
    maxPages: 50_000,
    maxDepth: 10,
    concurrencyPerHost: 2,
    render: false,
    ...given,
  };
  const mode = given.mode ?? 'site';
  return mode === 'site' ? { ...rest, mode, startUrl: startUrl ?? `${origin}/` } : { ...rest, mode };
}

/** An audit of an uploaded sitemap declaring `paths` on `origin`, set to crawl with `crawler`; its ingest
 * has run, so its crawl_site step is next. */
async function crawlingAudit(
  origin: string,
  paths: string[],
  crawler: Partial<CrawlerSettings>,
  options: Partial<TAuditOptions> = {},
): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'crawl-step-'));
  const storedPath = path.join(dir, 'sitemap.xml');
  writeFileSync(storedPath, urlsetXml(paths.map((p) => `${origin}${p}`)));
  const id = randomUUID();
  await insertAudit(
    id,
    'crawl step',
    { normalization: 'exact', crawler: settingsFor(origin, crawler), ...options },
    [{ role: 'sitemap', kind: 'upload', fileName: 'sitemap.xml', storedPath }],
  );
  await runAuditStep('ingest', id);
  const audit = await getAudit(id);
  expect(audit?.phase).toBe('queued');
  return id;
}

interface Row {
  url: string;
  status: number | null;
  depth: number | null;
  redirect_url: string | null;
  canonical: string | null;
  noindex: boolean | null;
  blocked_by_robots: boolean | null;
  content_type: string | null;
  inlinks: number | null;
}

async function crawlRows(id: string): Promise<Map<string, Row>> {
  const { rows } = await pool().query<Row>(
    `SELECT url, status, depth, redirect_url, canonical, noindex, blocked_by_robots, content_type, inlinks
       FROM crawl_pages WHERE audit_id = $1`,
    [id],
  );
  return new Map(rows.map((r) => [r.url, r]));
}

async function findings(id: string): Promise<Map<string, { list: string; reason: string }>> {
  const { rows } = await pool().query<{ url: string; list: string; reason: string }>(
    'SELECT url, list, reason FROM findings WHERE audit_id = $1',
    [id],
  );
  return new Map(rows.map((r) => [r.url, { list: r.list, reason: r.reason }]));
}

async function progressOf(id: string): Promise<CrawlProgress | null> {
  const { rows } = await pool().query<{ crawl_progress: CrawlProgress | null }>(
    'SELECT crawl_progress FROM audits WHERE id = $1',
    [id],
  );
  return rows[0]?.crawl_progress ?? null;
}

const isTrap = (p: string) => p.startsWith('/calendar/') || p.startsWith('/search');

describe('a site crawl as an audit step', () => {
  it('records every page kind, asks robots.txt first, never leaves the host, and feeds the review', async () => {
    const s = await site();
    const o = s.origin;
    const declared = [
      '/',
      '/blog/post-1',
      '/blog/orphan', // in a section crawled completely, linked from nowhere: pruned
      '/missing',
      '/old-page',
      '/noindex-meta',
      '/canonical-link',
      '/private/x', // disallowed by robots.txt
      '/calendar/2031/06', // deeper in the calendar than the depth limit lets the crawl go
    ];
    const id = await crawlingAudit(o, declared, { maxDepth: 6 });
    await runAuditStep('crawl_site', id);
    expect((await getAudit(id))?.phase).toBe('reconcile_queued');

    const rows = await crawlRows(id);
    const path = (url: string) => url.slice(o.length);
    // Every page a complete crawl of the site fetches, with its status and depth, and nothing else
    // outside the traps.
    for (const [p, fact] of CRAWL_SITE.pages) {
      expect(rows.get(`${o}${p}`), p).toMatchObject({ status: fact.status, depth: fact.depth });
    }
    const beyond = [...rows.keys()].map(path).filter((p) => !CRAWL_SITE.pages.has(p) && !isTrap(p));
    expect(beyond.sort()).toEqual(CRAWL_SITE.disallowed.filter((p) => p.startsWith('/private/')).sort());
    for (const p of CRAWL_SITE.disallowed) {
      expect(rows.get(`${o}${p}`)).toMatchObject({ status: null, blocked_by_robots: true });
    }
    for (const [from, to] of Object.entries(CRAWL_SITE.redirects)) {
      const target = to.startsWith('http') || to.startsWith('{') ? to : `${o}${to}`;
      if (to.startsWith('{OTHER}')) continue;
      expect(rows.get(`${o}${from}`)?.redirect_url, from).toBe(target);
    }
    expect(rows.get(`${o}/to-other`)?.redirect_url).toBe(`${s.origins[1]}/blog/`);
    for (const [p, c] of Object.entries(CRAWL_SITE.canonicals)) {
      expect(rows.get(`${o}${p}`)?.canonical, p).toBe(`${o}${c.target}`);
    }
    for (const p of Object.keys(CRAWL_SITE.noindex)) expect(rows.get(`${o}${p}`)?.noindex, p).toBe(true);
    expect(rows.get(`${o}/blog/post-3`)?.noindex).toBe(false);
    expect(rows.get(`${o}/files/guide.pdf`)?.content_type).toBe('application/pdf');
    // Inlinks: distinct pages linking to it (home and the three posts), and a <link rel=next> alone.
    expect(rows.get(`${o}/blog/`)?.inlinks).toBe(4);
    expect(rows.get(`${o}/docs/advanced`)?.inlinks).toBe(1);
    // Session ids stripped: each shop item once.
    expect([...rows.keys()].filter((u) => u.includes('/shop/item-'))).toHaveLength(2);

    // Politeness from the server's own log.
    const paths = s.requests.map((r) => r.path);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((p) => p.startsWith('/private/'))).toEqual([]);
    expect(s.requests.filter((r) => r.origin !== o)).toEqual([]);
    expect(new Set(s.requests.map((r) => r.userAgent))).toEqual(new Set([DEFAULT_USER_AGENT]));
    for (const p of CRAWL_SITE.resources) {
      expect(
        s.requestsTo(p).every((r) => r.method === 'HEAD' || r.status === 405 || r.status === 206),
        p,
      ).toBe(true);
      expect(s.requestsTo(p).filter((r) => r.method === 'GET' && r.status === 200)).toEqual([]);
    }
    for (const p of CRAWL_SITE.pages.keys()) {
      if (CRAWL_SITE.resources.includes(p)) continue;
      expect(s.requestsTo(p), p).toHaveLength(1); // fetched once
    }
    for (const p of CRAWL_SITE.unfollowed) expect(s.requestsTo(p), p).toEqual([]);

    // The traps were bounded, and the audit says where the crawl was cut.
    const trapRows = [...rows.keys()].map(path).filter(isTrap);
    expect(trapRows.length).toBeGreaterThan(5);
    expect(trapRows.length).toBeLessThan(120);
    const progress = (await progressOf(id)) as CrawlProgress;
    const calendar = progress.sections.find((x) => x.section.endsWith('/calendar'));
    expect(calendar?.cut.max_depth).toBeGreaterThan(0);
    const audit = await getAudit(id);
    const cutWarning = ((audit?.warnings ?? []) as { code: string; message: string }[]).find(
      (w) => w.code === 'crawler_cut',
    );
    expect(cutWarning?.message).toMatch(/\/calendar \(\d+ deeper than the depth limit/);

    await runAuditStep('reconcile', id);
    const found = await findings(id);
    expect(found.get(`${o}/missing`)).toEqual({ list: 'prune', reason: 'http_404' });
    expect(found.get(`${o}/old-page`)).toEqual({ list: 'prune', reason: 'redirects' });
    expect(found.get(`${o}/noindex-meta`)).toEqual({ list: 'prune', reason: 'noindex' });
    expect(found.get(`${o}/canonical-link`)).toEqual({ list: 'prune', reason: 'non_canonical' });
    expect(found.get(`${o}/blog/orphan`)).toEqual({ list: 'prune', reason: 'unreached_by_crawl' });
    expect(found.get(`${o}/private/x`)?.reason).toBe('blocked_by_robots');
    // The calendar section was cut by the depth limit: its unreached declared URL is held, not pruned.
    expect(found.get(`${o}/calendar/2031/06`)).toEqual({ list: 'held', reason: 'section_not_crawled' });
    expect(found.get(`${o}/blog/post-1`)).toBeUndefined(); // declared, crawled, fine
    expect(found.get(`${o}/blog/post-2`)).toMatchObject({ list: 'add' });
    expect(found.get(`${o}/noindex-header`)).toBeUndefined(); // not indexable: never added
  });

  it('holds every unreached URL when the crawl stopped at its page limit, whatever its section', async () => {
    const s = await site();
    const o = s.origin;
    const id = await crawlingAudit(o, ['/', '/blog/post-1', '/blog/orphan', '/missing'], { maxPages: 8 });
    await runAuditStep('crawl_site', id);
    const progress = (await progressOf(id)) as CrawlProgress;
    expect(progress.fetched).toBe(8);
    expect(progress.stopped?.reason).toBe('max_pages');
    const warnings = ((await getAudit(id))?.warnings ?? []) as { code: string; message: string }[];
    expect(warnings.find((w) => w.code === 'crawler_stopped')?.message).toMatch(
      /^The crawl reached its limit of 8 pages/,
    );
    await runAuditStep('reconcile', id);
    const found = await findings(id);
    // Pages it never fetched could link anywhere: nothing unreached is pruned on this crawl.
    for (const p of ['/blog/post-1', '/blog/orphan']) {
      if (found.has(`${o}${p}`))
        expect(found.get(`${o}${p}`), p).toEqual({ list: 'held', reason: 'section_not_crawled' });
    }
    expect(found.get(`${o}/blog/orphan`)).toBeDefined();
  });

  it('obeys the group robots.txt names for its own User-Agent, and Crawl-delay between requests', async () => {
    const delay = 0.1;
    const s = await site({
      robotsTxt: `User-agent: AcmeAuditBot\nDisallow: /blog/\nCrawl-delay: ${delay}\n\nUser-agent: *\nDisallow: /\n`,
    });
    process.env.CRAWLER_USER_AGENT = 'AcmeAuditBot/2.0 (+https://acme.example/bot)';
    try {
      const id = await crawlingAudit(s.origin, ['/'], { maxPages: 10, concurrencyPerHost: 4 });
      await runAuditStep('crawl_site', id);
    } finally {
      delete process.env.CRAWLER_USER_AGENT;
    }
    const fetched = s.requests.filter((r) => r.path !== '/robots.txt');
    expect(fetched.length).toBeGreaterThanOrEqual(9);
    expect(fetched.filter((r) => r.path.startsWith('/blog/'))).toEqual([]);
    expect(new Set(s.requests.map((r) => r.userAgent))).toEqual(
      new Set(['AcmeAuditBot/2.0 (+https://acme.example/bot)']),
    );
    // Crawl-delay is the least interval between two requests' starts, whatever the concurrency. The server
    // logs a request when its event loop (this test's, shared with the run) gets to it: a busy moment can
    // log one late and make the next gap look shorter by that much, never the whole span.
    const starts = fetched.map((r) => r.at).sort((a, b) => a - b);
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    const jitterMs = 25;
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delay * 1000 - jitterMs);
    expect((starts.at(-1) as number) - (starts[0] as number)).toBeGreaterThanOrEqual(
      gaps.length * delay * 1000 - jitterMs,
    );
  });

  it('pauses the host for the Retry-After of a 429 and fetches the page after it', async () => {
    const s = await site({ refusals: 1, retryAfterSeconds: 1 });
    const id = await crawlingAudit(s.origin, ['/'], { startUrl: `${s.origin}/rate-limited`, maxDepth: 1 });
    await runAuditStep('crawl_site', id);
    const asked = s.requestsTo('/rate-limited');
    expect(asked.map((r) => r.status)).toEqual([429, 200]);
    const [refused, answered] = asked.map((r) => r.at) as [number, number];
    expect(answered - refused).toBeGreaterThanOrEqual(995);
    // Nothing else went to the host during the pause.
    const during = s.requests.filter((r) => r.at > refused && r.at < answered);
    expect(during).toEqual([]);
    expect((await crawlRows(id)).get(`${s.origin}/rate-limited`)?.status).toBe(200);
  });

  it('in list mode fetches the declared URLs and their redirects only, following no link', async () => {
    const s = await site();
    const o = s.origin;
    const declared = [
      '/blog/post-1',
      '/missing',
      '/old-page',
      '/chain-start',
      '/private/y',
      '/files/guide.pdf',
    ];
    const id = await crawlingAudit(o, declared, { mode: 'list' });
    await runAuditStep('crawl_site', id);
    const requested = s.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
    // /old-page → /blog/post-1 (already declared); /chain-start → /chain-middle → /docs/intro.
    expect(new Set(requested)).toEqual(
      new Set([
        '/blog/post-1',
        '/missing',
        '/old-page',
        '/chain-start',
        '/chain-middle',
        '/docs/intro',
        '/files/guide.pdf',
      ]),
    );
    expect(requested).toHaveLength(7);
    const rows = await crawlRows(id);
    expect(rows.get(`${o}/private/y`)).toMatchObject({ status: null, blocked_by_robots: true });
    expect(rows.get(`${o}/docs/intro`)).toMatchObject({ status: 200, depth: 2 });
    await runAuditStep('reconcile', id);
    const found = await findings(id);
    expect(found.get(`${o}/missing`)?.reason).toBe('http_404');
    expect(found.get(`${o}/chain-start`)?.reason).toBe('redirects');
  });

  it('with render reads the links a script adds, which a plain crawl never sees', async () => {
    const s = await site();
    const o = s.origin;
    const crawled = async (render: boolean) => {
      const id = await crawlingAudit(o, ['/js-only/'], { startUrl: `${o}/js-only/`, maxDepth: 1, render });
      await runAuditStep('crawl_site', id);
      return [...(await crawlRows(id)).keys()].map((u) => u.slice(o.length)).sort();
    };
    expect(await crawled(false)).toEqual(['/js-only/']);
    expect(await crawled(true)).toEqual(['/js-only/', ...CRAWL_SITE.jsOnly].sort());
  });

  it('crawls again on Run again (new evidence), and not when a crawl export replaces it', async () => {
    const s = await site();
    const o = s.origin;
    const id = await crawlingAudit(o, ['/', '/blog/post-1'], { maxDepth: 1 });
    await runAuditStep('crawl_site', id);
    await runAuditStep('reconcile', id);
    await runAuditStep('site_history', id);
    const siteId = (await getAudit(id))?.siteId as string;
    expect(siteId).toBeTruthy();
    const asked = s.requestsTo('/blog/').length;
    expect(asked).toBe(1);

    const reviewer = await testCaller('reviewer');
    const url = `http://localhost/api/v1/sites/${siteId}/runs`;
    const ctx = { params: Promise.resolve({ id: siteId }) };
    const again = await runAgain(
      reviewer.request(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
      ctx,
    );
    expect(again.status).toBe(202);
    const rerun = ((await again.json()) as { id: string }).id;
    await runAuditStep('ingest', rerun);
    await runAuditStep('crawl_site', rerun);
    expect(s.requestsTo('/blog/')).toHaveLength(2);
    expect((await crawlRows(rerun)).get(`${o}/blog/`)?.status).toBe(200);
    await runAuditStep('reconcile', rerun);
    await runAuditStep('site_history', rerun);

    const exported = await runAgain(
      reviewer.request(url, {
        method: 'POST',
        body: multipartBody(part('crawl', `{"url":"${o}/","status":200}\n`, 'crawl.jsonl')),
        headers: { 'content-type': MULTIPART },
      }),
      ctx,
    );
    expect(exported.status, await exported.clone().text()).toBe(202);
    const fromExport = ((await exported.json()) as { id: string }).id;
    const { rows } = await pool().query('SELECT options FROM audits WHERE id = $1', [fromExport]);
    expect(rows[0].options.crawler).toBeUndefined();
    await runAuditStep('ingest', fromExport);
    expect((await getAudit(fromExport))?.phase).toBe('reconcile_queued');
    expect(s.requestsTo('/blog/')).toHaveLength(2);
  });

  it('stops on a cancel, keeps nothing of the crawl, and sends no request after it', async () => {
    const s = await site({ generatedPages: 5_000, crawlDelaySeconds: 0.01 });
    const id = await crawlingAudit(s.origin, ['/gen/0'], { startUrl: `${s.origin}/gen/0` });
    const step = runAuditStep('crawl_site', id);
    while (((await progressOf(id))?.fetched ?? 0) < 20) await new Promise((r) => setTimeout(r, 50));
    await cancelAudit(id, 'test');
    await step;
    const after = s.requests.length;
    expect((await getAudit(id))?.status).toBe('cancelled');
    expect(after).toBeLessThan(1_000);
    for (const table of ['crawl_frontier', 'crawl_results', 'crawl_inlinks', 'crawl_pages']) {
      const { rows } = await pool().query(`SELECT count(*)::int AS n FROM ${table} WHERE audit_id = $1`, [
        id,
      ]);
      expect(rows[0].n, table).toBe(0);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(s.requests.length).toBe(after);
  });
});
