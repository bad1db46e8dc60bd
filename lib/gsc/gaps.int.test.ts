// The per-sitemap gap against real Postgres: audits of dhmguide's real sitemap, a two-file
// index and two more uploads, with Search Console rows stored as an import stores them; the exact counts
// per file, the newest source winning (an older import, a failed one, inspections before and after), the
// bands at 9.9 / 10 / 30 / 30.1 %, the estimate from inspected keys, the Sitemaps report's flags, and the
// property totals and coverage from cowboykimono's real Chart.csv and drill-downs (737 not indexed, 78
// indexed). The route answers viewers.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/api/v1/audits/[id]/gsc/sitemaps/route';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { bucketOf } from '@/lib/findings/evidence/gsc-reasons';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { normalizeUrl } from '@/lib/urls/normalize';
import { sitemapGaps } from './gaps';
import type { SitemapGapDto } from './gaps-shape';
import { parseGscFile } from './parse';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const HOST = 'https://www.dhmguide.com';

interface UrlState {
  url: string;
  state: 'indexed' | 'not_indexed';
  reason?: string;
  source?: 'drilldown' | 'performance';
}

/** An import as the import step stores it: the run row and its URL states, chart points, report lines. */
async function storeImport(
  auditId: string,
  input: {
    finishedAt: string;
    status?: 'succeeded' | 'failed';
    states?: UrlState[];
    chart?: { date: string; notIndexed: number | null; indexed: number | null }[];
    report?: { sitemap: string; lastRead: string | null; status: string | null; submitted?: string }[];
  },
): Promise<string> {
  const id = randomUUID();
  await pool().query(
    `INSERT INTO gsc_imports (id, audit_id, status, phase, step, uploads, created_by, created_at, finished_at)
     VALUES ($1, $2, $3, 'done', NULL, '[]', 'Tess Tester', $4::timestamptz - interval '1 minute', $4)`,
    [id, auditId, input.status ?? 'succeeded', input.finishedAt],
  );
  const states = input.states ?? [];
  await pool().query(
    `INSERT INTO gsc_url_states (import_id, export_index, line, audit_id, url, key, state, reason, bucket, source)
     SELECT $1, 0, s.n::int + 1, $2, s.url, s.key, s.state, s.reason, s.bucket, s.source
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY
            AS s(url, key, state, reason, bucket, source, n)`,
    [
      id,
      auditId,
      states.map((s) => s.url),
      states.map((s) => normalizeUrl(s.url, 'exact')),
      states.map((s) => s.state),
      states.map((s) => s.reason ?? null),
      states.map((s) => (s.reason ? bucketOf(s.reason) : null)),
      states.map((s) => s.source ?? (s.state === 'indexed' ? 'performance' : 'drilldown')),
    ],
  );
  for (const p of input.chart ?? []) {
    await pool().query(
      `INSERT INTO gsc_chart_points (import_id, export_index, date, audit_id, indexed, not_indexed)
       VALUES ($1, 1, $2, $3, $4, $5)`,
      [id, p.date, auditId, p.indexed, p.notIndexed],
    );
  }
  for (const [i, r] of (input.report ?? []).entries()) {
    await pool().query(
      `INSERT INTO gsc_sitemap_reports (import_id, export_index, line, audit_id, sitemap, submitted, last_read, status)
       VALUES ($1, 2, $2, $3, $4, $5, $6, $7)`,
      [id, i + 2, auditId, r.sitemap, r.submitted ?? null, r.lastRead, r.status],
    );
  }
  return id;
}

/** URL Inspection answers for `urls`, inspected at `at`. */
async function storeInspections(
  auditId: string,
  at: string,
  answers: { url: string; state: 'indexed' | 'not_indexed'; coverage: string }[],
): Promise<void> {
  const runId = randomUUID();
  await pool().query(
    `INSERT INTO gsc_inspection_runs (id, audit_id, status, phase, step, property, request, created_by)
     VALUES ($1, $2, 'succeeded', 'done', NULL, 'sc-domain:dhmguide.com', '{"sample":10}', 'Tess Tester')`,
    [runId, auditId],
  );
  await pool().query(
    `INSERT INTO gsc_inspections (run_id, position, audit_id, url, key, state, coverage_state, bucket, inspected_at)
     SELECT $1, a.n::int, $2, a.url, a.key, a.state, a.coverage, a.bucket, $3
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY
            AS a(url, key, state, coverage, bucket, n)`,
    [
      runId,
      auditId,
      at,
      answers.map((a) => a.url),
      answers.map((a) => normalizeUrl(a.url, 'exact')),
      answers.map((a) => a.state),
      answers.map((a) => a.coverage),
      answers.map((a) => (a.state === 'not_indexed' ? bucketOf(a.coverage) : null)),
    ],
  );
}

const range = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i + 1));
const index = (locs: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((l) => `<sitemap><loc>${l}</loc></sitemap>`)
    .join('')}</sitemapindex>`;

const posts = range(1000, (i) => `${HOST}/posts/${i}`);
const pages = range(10, (i) => `${HOST}/pages/${i}`);
const thirty = range(10, (i) => `${HOST}/a/${i}`);
const over = range(1000, (i) => `${HOST}/b/${i}`);
const dhmXml = readFileSync(path.join(FIXTURES, 'xml/recon-dhmguide-sitemap.xml'), 'utf8');
const dhmLocs = [...new Set([...dhmXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').trim()))];

const notFound = (url: string): UrlState => ({ url, state: 'not_indexed', reason: 'Not found (404)' });
const redirect = (url: string): UrlState => ({ url, state: 'not_indexed', reason: 'Page with redirect' });
const indexed = (url: string): UrlState => ({ url, state: 'indexed' });

let auditId: string;
let server: TestServer;
let SITE = '';
let rows: Map<string, SitemapGapDto>;

afterAll(() => server.close());

beforeAll(async () => {
  // The index and its children are fetched (so they have URLs the report can name); the rest is uploaded.
  const served: Record<string, string> = {
    '/sitemap_index.xml': index([`${SITE}/posts-sitemap.xml`, `${SITE}/pages-sitemap.xml`]),
    '/posts-sitemap.xml': urlsetXml(posts),
    '/pages-sitemap.xml': urlsetXml(pages),
  };
  server = await startTestServer((req, res) => {
    const body = served[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/xml' });
    res.end(body ?? '');
  });
  SITE = server.origin;
  served['/sitemap_index.xml'] = index([`${SITE}/posts-sitemap.xml`, `${SITE}/pages-sitemap.xml`]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gsc-gaps-'));
  // a.xml declares its first URL twice: submitted counts distinct keys (and the ingest's facts say the
  // audit's keys are not distinct, so the counts take the de-duplicating path).
  const uploads = {
    'sitemap.xml': dhmXml,
    'a.xml': urlsetXml([...thirty, thirty[0] as string]),
    'b.xml': urlsetXml(over),
  };
  const sources = Object.entries(uploads).map(([fileName, xml]) => {
    const storedPath = path.join(dir, fileName);
    writeFileSync(storedPath, xml);
    return { role: 'sitemap' as const, kind: 'upload' as const, fileName, storedPath };
  });
  auditId = randomUUID();
  await insertAudit(auditId, 'GSC gaps', { normalization: 'exact' }, [
    ...sources,
    { role: 'sitemap', kind: 'url', url: `${SITE}/sitemap_index.xml` },
  ]);
  await runAuditStep('ingest', auditId);
  const dhm = dhmLocs;
  // An older import: dhm[0..4] not indexed, all overridden below; a failed one that changes nothing.
  await storeImport(auditId, {
    finishedAt: '2026-11-20T10:00:00Z',
    states: dhm.slice(0, 5).map(notFound),
    chart: [{ date: '2026-11-19', indexed: 1, notIndexed: 1 }],
    report: [{ sitemap: `${HOST}/b.xml`, lastRead: '2026-11-19', status: 'Success' }],
  });
  await storeImport(auditId, {
    finishedAt: '2026-11-30T10:00:00Z',
    status: 'failed',
    states: dhm.slice(100, 170).map(notFound),
  });
  const chart = parseGscFile(
    'Chart.csv',
    readFileSync(path.join(FIXTURES, 'gsc/cowboykimono-overview/Chart.csv')),
  );
  if (chart.kind !== 'overview-chart') throw new Error(chart.kind);
  await storeImport(auditId, {
    finishedAt: '2026-12-01T10:00:00Z',
    states: [
      // dhmguide: 30 indexed (dhm[0..4] among them, overriding the older import), 12 redirects, 8 404s
      ...dhm.slice(0, 30).map(indexed),
      ...dhm.slice(30, 42).map(redirect),
      ...dhm.slice(42, 50).map(notFound),
      // dhm[50] is both a Performance page and a drill-down line: not indexed wins within an import.
      { url: dhm[50] as string, state: 'indexed', source: 'performance' },
      notFound(dhm[50] as string),
      // bands: 99 of 1000 (9.9 %), 1 of 10 (10 %), 3 of 10 (30 %), 301 of 1000 (30.1 %)
      ...posts.slice(0, 99).map(redirect),
      ...posts.slice(99, 1000).map(indexed),
      notFound(pages[0] as string),
      ...thirty.slice(0, 3).map(notFound),
      ...over.slice(0, 301).map(redirect),
      ...over.slice(301, 400).map(indexed),
      // a URL of no sitemap, and one that is no URL
      indexed('https://elsewhere.example/x'),
    ],
    chart: chart.rows.map((r) => ({ date: r.date, indexed: r.indexed, notIndexed: r.notIndexed })),
    report: [
      { sitemap: `${HOST}/sitemap.xml`, lastRead: '2026-11-30', status: 'Success', submitted: '2025-01-02' },
      { sitemap: `${SITE}/sitemap_index.xml`, lastRead: '2026-11-29', status: 'Success' },
      { sitemap: `${SITE}/posts-sitemap.xml`, lastRead: '2026-11-29', status: "Couldn't fetch" },
      { sitemap: `${SITE.toUpperCase()}/pages-sitemap.xml`, lastRead: '2026-11-16', status: 'Success' },
      { sitemap: `${HOST}/a.xml`, lastRead: '2026-11-17', status: 'Success' },
    ],
  });
  // Inspections: newer than the import for dhm[0] (now not indexed) and 9 unknown keys (4 not indexed);
  // older than the import for dhm[30] (the import's redirect stays).
  await storeInspections(auditId, '2026-12-01T12:00:00Z', [
    { url: dhm[0] as string, state: 'not_indexed', coverage: 'Crawled - currently not indexed' },
    ...dhm.slice(60, 64).map((url) => ({
      url,
      state: 'not_indexed' as const,
      coverage: 'Discovered - currently not indexed',
    })),
    ...dhm
      .slice(64, 69)
      .map((url) => ({ url, state: 'indexed' as const, coverage: 'Submitted and indexed' })),
  ]);
  await storeInspections(auditId, '2026-11-01T12:00:00Z', [
    { url: dhm[30] as string, state: 'indexed', coverage: 'Submitted and indexed' },
  ]);
  const gaps = await sitemapGaps(auditId);
  rows = new Map(gaps.sitemaps.map((r) => [r.sitemap.replace(SITE, ''), r]));
});

const row = (name: string): SitemapGapDto => {
  const r = rows.get(name);
  if (!r) throw new Error(`no row ${name}: ${[...rows.keys()].join(', ')}`);
  return r;
};

describe('gaps per sitemap file', () => {
  it('has a row per file with entries: the index is not one, its children are', () => {
    expect([...rows.keys()].sort()).toEqual([
      '/pages-sitemap.xml',
      '/posts-sitemap.xml',
      'a.xml',
      'b.xml',
      'sitemap.xml',
    ]);
  });

  it("counts dhmguide's real sitemap exactly, the newest source winning", () => {
    const dhm = row('sitemap.xml');
    expect(dhm.submitted).toBe(dhmLocs.length);
    // indexed: dhm[1..29] (dhm[0] inspected later: not indexed) + dhm[64..68] inspected indexed
    expect(dhm.indexed).toBe(29 + 5);
    // not indexed: dhm[0] + 12 redirects (dhm[30] kept: its inspection is older) + 8 + dhm[50] + 4
    expect(dhm.notIndexed).toBe(1 + 12 + 8 + 1 + 4);
    expect(dhm.unknown).toBe(dhmLocs.length - 34 - 26);
    expect(dhm.notIndexedByReason).toEqual([
      { bucket: 'redirects', reason: 'Page with redirect', count: 12 },
      { bucket: 'http_404', reason: 'Not found (404)', count: 9 },
      { bucket: 'discovered_not_indexed', reason: 'Discovered - currently not indexed', count: 4 },
      { bucket: 'crawled_not_indexed', reason: 'Crawled - currently not indexed', count: 1 },
    ]);
    expect(dhm.gapPct).toBeCloseTo(26 / dhmLocs.length, 10);
  });

  it('estimates the gap of a partly known file from its inspected keys (Wilson over them)', () => {
    const dhm = row('sitemap.xml');
    // 10 inspected keys with a state: dhm[0], dhm[60..68] (5 not indexed), and dhm[30] (the import's
    // newer redirect: not indexed) = 11 sampled, 6 not indexed.
    expect(dhm.sampled).toBe(11);
    expect(dhm.basis).toBe('estimate');
    expect(dhm.gapJudged).toBeCloseTo(6 / 11, 10);
    expect(dhm.gapLow).toBeGreaterThan(0.2);
    expect(dhm.gapHigh).toBeLessThan(0.85);
    expect(dhm.band).toBe('problem');
  });

  it('judges the bands at 9.9, 10, 30 and 30.1 % on the known gap', () => {
    expect(row('/posts-sitemap.xml')).toMatchObject({
      gapPct: 0.099,
      band: 'normal',
      basis: 'known',
      unknown: 0,
    });
    expect(row('/pages-sitemap.xml')).toMatchObject({ gapPct: 0.1, band: 'investigate', unknown: 9 });
    expect(row('a.xml')).toMatchObject({ submitted: 10, gapPct: 0.3, band: 'investigate', unknown: 7 });
    expect(row('b.xml')).toMatchObject({ gapPct: 0.301, band: 'problem', indexed: 99, unknown: 600 });
  });

  it('sorts by the judged gap, largest first', () => {
    const judged = [...rows.values()].map((r) => r.gapJudged ?? 0);
    expect(judged).toEqual([...judged].sort((a, b) => b - a));
  });

  it('flags from the latest Sitemaps report: fetch problem, stale, and files it does not list', () => {
    expect(row('sitemap.xml')).toMatchObject({
      lastRead: '2026-11-30',
      status: 'Success',
      submittedOn: '2025-01-02',
      reportLine: 'file',
      flags: { stale: false, fetchProblem: false, notInSearchConsole: false },
    });
    expect(row('/posts-sitemap.xml')).toMatchObject({
      status: "Couldn't fetch",
      reportLine: 'file',
      flags: { stale: false, fetchProblem: true, notInSearchConsole: false },
    });
    // Matched by the audit's key of the URL; read 15 days before the import's date: stale.
    expect(row('/pages-sitemap.xml')).toMatchObject({
      lastRead: '2026-11-16',
      flags: { stale: true, fetchProblem: false, notInSearchConsole: false },
    });
    // 14 days is not stale yet.
    expect(row('a.xml').flags).toEqual({ stale: false, fetchProblem: false, notInSearchConsole: false });
    // b.xml was only in the older import's report.
    expect(row('b.xml')).toMatchObject({
      lastRead: null,
      reportLine: null,
      flags: { stale: false, fetchProblem: false, notInSearchConsole: true },
    });
  });

  it('gives a child without its own report line the index line above it', async () => {
    await storeImport(auditId, {
      finishedAt: '2026-12-01T11:00:00Z',
      report: [{ sitemap: `${SITE}/sitemap_index.xml`, lastRead: '2026-11-01', status: 'Has errors' }],
    });
    const latest = new Map(
      (await sitemapGaps(auditId)).sitemaps.map((r) => [r.sitemap.replace(SITE, ''), r]),
    );
    expect(latest.get('/posts-sitemap.xml')).toMatchObject({
      reportLine: 'index',
      lastRead: '2026-11-01',
      flags: { stale: true, fetchProblem: true, notInSearchConsole: false },
    });
    expect(latest.get('sitemap.xml')?.flags.notInSearchConsole).toBe(true);
    await pool().query('DELETE FROM gsc_imports WHERE audit_id = $1 AND finished_at = $2', [
      auditId,
      '2026-12-01T11:00:00Z',
    ]);
  });
});

describe('property totals', () => {
  it("come from the latest import's real Chart.csv: the last day's 737 not indexed and 78 indexed", async () => {
    const { property } = await sitemapGaps(auditId);
    expect(property).toMatchObject({ date: '2025-10-17', notIndexed: 737, indexed: 78 });
    expect(property?.series[0]).toEqual({ date: '2025-07-24', indexed: null, notIndexed: null });
    expect(property?.series).toHaveLength(86);
    expect(property?.seriesTruncated).toBe(false);
  });

  it('say how much of the property the imports name URL by URL', async () => {
    const cowboy = await reconciledAuditOf('GSC coverage', {
      sitemaps: { 's.xml': urlsetXml(['https://cowboykimono.com/blog/walk-and-celebrate']) },
      crawl: [],
    });
    const chart = parseGscFile(
      'Chart.csv',
      readFileSync(path.join(FIXTURES, 'gsc/cowboykimono-overview/Chart.csv')),
    );
    if (chart.kind !== 'overview-chart') throw new Error(chart.kind);
    const states: UrlState[] = [];
    for (const [dir, issue] of [
      ['cowboykimono-404_errors', 'Not found (404)'],
      ['cowboykimono-canonical', 'Alternate page with proper canonical tag'],
      ['cowboykimono-coverage', 'Crawled - currently not indexed'],
    ] as const) {
      const table = parseGscFile('Table.csv', readFileSync(path.join(FIXTURES, 'gsc', dir, 'Table.csv')));
      if (table.kind !== 'drilldown-table') throw new Error(table.kind);
      states.push(...table.rows.map((r) => ({ url: r.url, state: 'not_indexed' as const, reason: issue })));
    }
    expect(states).toHaveLength(104 + 31 + 542);
    await storeImport(cowboy, {
      finishedAt: '2026-12-01T10:00:00Z',
      states,
      chart: chart.rows.map((r) => ({ date: r.date, indexed: r.indexed, notIndexed: r.notIndexed })),
    });
    const named = new Set(states.map((s) => normalizeUrl(s.url, 'exact') ?? s.url)).size;
    const gaps = await sitemapGaps(cowboy);
    expect(gaps.property).toMatchObject({ indexed: 78, notIndexed: 737, named });
    expect(gaps.property?.coverage).toBeCloseTo(named / 815, 10);
    expect(gaps.sitemaps).toEqual([
      expect.objectContaining({
        submitted: 1,
        notIndexed: 1,
        notIndexedByReason: [
          { bucket: 'crawled_not_indexed', reason: 'Crawled - currently not indexed', count: 1 },
        ],
        gapPct: 1,
        band: 'problem',
        flags: { stale: false, fetchProblem: false, notInSearchConsole: false },
      }),
    ]);
  });
});

describe('GET /api/v1/audits/{id}/gsc/sitemaps', () => {
  it('answers a viewer with the sitemaps and the property; an audit without imports has none', async () => {
    const viewer = await testCaller('viewer');
    const call = (id: string) =>
      GET(viewer.request(`http://localhost/api/v1/audits/${id}/gsc/sitemaps`), {
        params: Promise.resolve({ id }),
      });
    const response = await call(auditId);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.hasData).toBe(true);
    expect(body.sitemaps).toHaveLength(5);
    expect(body.property.notIndexed).toBe(737);
    // The succeeded imports the answer was read after (the failed one does not count), as the page
    // compares them with the imports list.
    const { rows: latest } = await pool().query<{ id: string }>(
      `SELECT id FROM gsc_imports WHERE audit_id = $1 AND status = 'succeeded' ORDER BY created_at DESC LIMIT 1`,
      [auditId],
    );
    expect(body.importsSignature).toBe(`2:${latest[0]?.id}`);
    const empty = await reconciledAuditOf('GSC none', {
      sitemaps: { 's.xml': urlsetXml([`${HOST}/x`]) },
      crawl: [],
    });
    expect(await (await call(empty)).json()).toEqual({
      hasData: false,
      importsSignature: '0:',
      sitemaps: [],
      property: null,
      sitemapReportOn: null,
    });
    expect((await call(randomUUID())).status).toBe(404);
  });
});
