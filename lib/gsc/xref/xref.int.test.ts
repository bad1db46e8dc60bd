// Search Console cross-referenced with the findings, on the real R4 scenario: an audit
// whose sitemap declares 40 URLs of cowboykimono's real "Not found (404)" drilldown (the Ahrefs exports share
// no URL with it, MANIFEST R4), crawled so that some answer 404 or 410 (we agree with Google), some 200
// (Google says 404, we flag nothing) and some not at all (pruned or held for another reason). Imports are
// written as rows (the import run is proved in lib/gsc/import-run tests): the drilldown as parsed from the
// fixture, an older Performance import it supersedes, a newer one that says some pruned rows are indexed,
// and a failed one that counts for nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as previewRoute } from '@/app/api/v1/audits/[id]/decisions/preview/route';
import { POST as decideRoute } from '@/app/api/v1/audits/[id]/decisions/route';
import { GET as exportRoute } from '@/app/api/v1/audits/[id]/export/route';
import { GET as getFindingRoute } from '@/app/api/v1/audits/[id]/findings/[findingId]/route';
import { GET as reasonsRoute } from '@/app/api/v1/audits/[id]/findings/reasons/route';
import { GET as listRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { GET as xrefRoute } from '@/app/api/v1/audits/[id]/gsc/cross-reference/route';
import { pool } from '@/lib/db/client';
import { bucketOf } from '@/lib/findings/evidence/gsc-reasons';
import type { FindingDetailDto, FindingDto, FindingPage } from '@/lib/findings/schema';
import { parseGscFile } from '@/lib/gsc/parse';
import { gscCrossReferenceKeys } from '@/lib/gsc/xref/hooks';
import type { GscCrossReferenceDto } from '@/lib/gsc/xref/types';
import { findingKeys } from '@/lib/review/hooks';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { fixturePath } from '@/lib/test-support/fixtures';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { urlKeys } from '@/lib/urls/normalize';

const FIXTURE = fixturePath('gsc/cowboykimono-404_errors');
const base = 'http://localhost/api/v1/audits';
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
let reviewer: TestCaller;

interface StateRow {
  url: string;
  state: 'indexed' | 'not_indexed';
  reason: string | null;
  lastCrawled: string | null;
  source: 'drilldown' | 'performance';
}

/** A Search Console import of `status`, created at `at`, with its URL states (keys as the audit computes). */
async function insertImport(auditId: string, status: string, at: string, rows: StateRow[]): Promise<string> {
  const isDone = status === 'succeeded';
  const { rows: made } = await pool().query<{ id: string }>(
    `INSERT INTO gsc_imports (audit_id, status, step, phase, created_by, created_at, finished_at, uploads)
     VALUES ($1, $2, NULL, $3, 'test', $4, $4, '[]') RETURNING id`,
    [auditId, status, isDone ? 'done' : 'failed', at],
  );
  const importId = made[0]?.id as string;
  await pool().query(
    `INSERT INTO gsc_url_states (import_id, export_index, line, audit_id, url, key, state, reason, bucket,
       last_crawled, scope, source)
     SELECT $1, 0, t.line, $2, t.url, t.key, t.state, t.reason, t.bucket, t.last_crawled::date, 'All known pages', t.source
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
         AS t(line, url, key, state, reason, bucket, last_crawled, source)`,
    [
      importId,
      auditId,
      rows.map((_, i) => i + 2),
      rows.map((r) => r.url),
      rows.map((r) => urlKeys(r.url, 'exact')?.key ?? null),
      rows.map((r) => r.state),
      rows.map((r) => r.reason),
      rows.map((r) => (r.reason ? bucketOf(r.reason) : null)),
      rows.map((r) => r.lastCrawled),
      rows.map((r) => r.source),
    ],
  );
  return importId;
}

const indexed = (url: string): StateRow => ({
  url,
  state: 'indexed',
  reason: null,
  lastCrawled: null,
  source: 'performance',
});

async function get<T>(route: typeof listRoute, auditId: string, pathAndQuery: string): Promise<T> {
  const res = await route(reviewer.request(`${base}/${auditId}/${pathAndQuery}`), ctx({ id: auditId }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

const urlsOf = (page: FindingPage) => page.items.map((f) => f.url).sort();

describe('Search Console in the review, on cowboykimono (R4)', () => {
  let auditId = '';
  let drilldownId = '';
  /** The drilldown's 104 URLs, as parsed. */
  let table: { url: string; lastCrawled: string | null }[] = [];
  /** The declared URLs by how the crawl answered. */
  const crawled404: string[] = [];
  const crawled200: string[] = [];
  const unreached: string[] = [];
  const crawled410: string[] = [];
  /** Unreached rows the newest import says are indexed. */
  let indexedNow: string[] = [];

  beforeAll(async () => {
    reviewer = await testCaller('reviewer');
    const file = parseGscFile('Table.csv', readFileSync(path.join(FIXTURE, 'Table.csv')));
    if (file.kind !== 'drilldown-table') throw new Error(`Table.csv read as ${file.kind}`);
    const metadata = readFileSync(path.join(FIXTURE, 'Metadata.csv'), 'utf8');
    expect(metadata).toContain('Issue,Not found (404)');
    table = file.rows;
    expect(table).toHaveLength(104);
    // The first 40 page URLs (not the PDF) are declared: four groups by how the crawl answered.
    const declared = table
      .map((r) => r.url)
      .filter((u) => !u.endsWith('.pdf'))
      .slice(0, 40);
    const crawl: string[] = [];
    declared.forEach((url, i) => {
      const group = [crawled404, crawled200, unreached, crawled410][i % 4] as string[];
      group.push(url);
      const status = [404, 200, null, 410][i % 4];
      if (status !== null) {
        crawl.push(
          JSON.stringify({ url, status, crawled_at: '2026-11-01T00:00:00Z', content_type: 'text/html' }),
        );
      }
    });
    auditId = await reconciledAuditOf('GSC cross-reference R4', {
      sitemaps: { 'sitemap.xml': urlsetXml(declared) },
      crawl,
    });
    // Older: Google had some of the 404s indexed (Performance). Superseded by the drilldown.
    await insertImport(auditId, 'succeeded', '2026-11-20T00:00:00Z', crawled404.slice(0, 5).map(indexed));
    drilldownId = await insertImport(
      auditId,
      'succeeded',
      '2026-11-25T00:00:00Z',
      table.map((r) => ({
        url: r.url,
        state: 'not_indexed',
        reason: 'Not found (404)',
        lastCrawled: r.lastCrawled,
        source: 'drilldown',
      })),
    );
    // Newer: three URLs we prune as unreached are indexed now (prune with care).
    const { rows: pruned } = await pool().query<{ url: string }>(
      "SELECT url FROM findings WHERE audit_id = $1 AND reason = 'unreached_by_crawl' ORDER BY id LIMIT 3",
      [auditId],
    );
    indexedNow = pruned.map((r) => r.url);
    expect(indexedNow).toHaveLength(3);
    await insertImport(auditId, 'succeeded', '2026-11-28T00:00:00Z', indexedNow.map(indexed));
    // Newest, but failed: says nothing.
    await insertImport(auditId, 'failed', '2026-11-30T00:00:00Z', crawled200.map(indexed));
  });

  async function findingsOf(query: string): Promise<FindingPage> {
    return get<FindingPage>(listRoute, auditId, `findings?${query}&limit=1000`);
  }

  it('reconciles the scenario as designed', async () => {
    const { rows } = await pool().query<{ list: string; reason: string; n: number }>(
      'SELECT list, reason, count(*)::int AS n FROM findings WHERE audit_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
      [auditId],
    );
    // 10 + 10 crawled 404/410, 10 crawled 200 (no finding), 10 not crawled: pruned as unreached, or held
    // where the crawl reached nothing of their host.
    const byReason = Object.fromEntries(rows.map((r) => [`${r.list}:${r.reason}`, r.n]));
    expect(byReason['prune:http_404']).toBe(10);
    expect(byReason['prune:http_410']).toBe(10);
    expect((byReason['prune:unreached_by_crawl'] ?? 0) + (byReason['held:section_not_crawled'] ?? 0)).toBe(
      10,
    );
    expect(rows.reduce((s, r) => s + r.n, 0)).toBe(30);
  });

  it("shows each row's current state on the list: the latest succeeded import wins", async () => {
    const page = await findingsOf('list=prune');
    expect(page.columns.gsc).toBe(true);
    const byUrl = new Map(page.items.map((f) => [f.url, f]));
    const notFound = byUrl.get(crawled404[0] as string) as FindingDto;
    // The older Performance import said indexed; the drilldown imported later says 404.
    expect(notFound.gsc).toEqual({
      state: 'not_indexed',
      reason: 'Not found (404)',
      bucket: 'http_404',
      lastCrawled: table.find((r) => r.url === notFound.url)?.lastCrawled,
      source: 'drilldown',
      agrees: true,
    });
    expect(byUrl.get(crawled410[0] as string)?.gsc?.agrees).toBe(true);
    const gone = byUrl.get(indexedNow[0] as string) as FindingDto;
    expect(gone.reason).toBe('unreached_by_crawl');
    expect(gone.gsc).toMatchObject({ state: 'indexed', reason: null, bucket: null, agrees: null });
    const otherUnreached = page.items.find(
      (f) => f.reason === 'unreached_by_crawl' && !indexedNow.includes(f.url),
    );
    expect(otherUnreached?.gsc).toMatchObject({ bucket: 'http_404', agrees: false });
  });

  it('gives the source import and its date in the detail', async () => {
    const page = await findingsOf('list=prune&reason=http_404');
    const first = page.items[0] as FindingDto;
    const res = await getFindingRoute(
      reviewer.request(`${base}/${auditId}/findings/${first.id}`),
      ctx({ id: auditId, findingId: String(first.id) }),
    );
    const detail: FindingDetailDto = await res.json();
    expect(detail.gsc).toMatchObject({
      state: 'not_indexed',
      importId: drilldownId,
      importedAt: '2026-11-25T00:00:00.000Z',
      scope: 'All known pages',
      url: first.url,
      agrees: true,
    });
  });

  it('filters by state, bucket and agreement in the list and the reason counts', async () => {
    expect(urlsOf(await findingsOf('list=prune&gsc=indexed'))).toEqual([...indexedNow].sort());
    const agrees = await findingsOf('list=prune&gsc=http_404&gscMatch=agrees');
    expect(urlsOf(agrees)).toEqual([...crawled404, ...crawled410].sort());
    expect(agrees.total).toBe(20);
    const disagrees = await findingsOf('list=prune&gsc=http_404&gscMatch=disagrees');
    expect(disagrees.items.every((f) => f.reason === 'unreached_by_crawl')).toBe(true);
    expect(disagrees.items.some((f) => indexedNow.includes(f.url))).toBe(false);
    expect((await findingsOf('list=prune&gsc=not_indexed')).total).toBe(agrees.total + disagrees.total);
    // Every row is named by some import, so none is unknown; a bucket no import names matches nothing.
    expect((await findingsOf('list=prune&gsc=unknown')).total).toBe(0);
    expect((await findingsOf('list=prune&gsc=redirects')).total).toBe(0);
    // Only Google can tell crawled-not-indexed: it neither agrees nor disagrees.
    expect((await findingsOf('list=prune&gsc=crawled_not_indexed&gscMatch=disagrees')).total).toBe(0);

    const counts = await get<{ byReason: Record<string, number> }>(
      reasonsRoute,
      auditId,
      'findings/reasons?list=prune&gsc=http_404&gscMatch=agrees',
    );
    expect(counts.byReason).toEqual({ http_404: 10, http_410: 10 });

    const refused = await listRoute(
      reviewer.request(`${base}/${auditId}/findings?list=prune&gsc=indexed&gscMatch=agrees`),
      ctx({ id: auditId }),
    );
    expect(refused.status).toBe(400);
    const unknownValue = await listRoute(
      reviewer.request(`${base}/${auditId}/findings?list=prune&gsc=maybe`),
      ctx({ id: auditId }),
    );
    expect(unknownValue.status).toBe(400);
  });

  it('filters the export, the preview and bulk decisions: prune with care', async () => {
    const csv = await exportRoute(
      reviewer.request(`${base}/${auditId}/export?list=prune&decision=all&gsc=indexed`),
      ctx({ id: auditId }),
    );
    const lines = (await csv.text()).trim().split('\n');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual([...indexedNow].sort());

    const preview = await previewRoute(
      reviewer.request(`${base}/${auditId}/decisions/preview?list=prune&gsc=indexed&decision=rejected`),
      ctx({ id: auditId }),
    );
    expect(await preview.json()).toMatchObject({ willChange: 3 });
    const res = await decideRoute(
      reviewer.request(`${base}/${auditId}/decisions`, {
        method: 'POST',
        body: JSON.stringify({
          decision: 'rejected',
          filter: { list: 'prune', gsc: 'indexed' },
          note: 'indexed',
        }),
      }),
      ctx({ id: auditId }),
    );
    expect(await res.json()).toMatchObject({ updated: 3 });
    const rejected = await findingsOf('list=prune&decision=rejected');
    expect(urlsOf(rejected)).toEqual([...indexedNow].sort());
  });

  it('cross-references every bucket with the findings', async () => {
    const xref = await get<GscCrossReferenceDto>(
      xrefRoute as typeof listRoute,
      auditId,
      'gsc/cross-reference',
    );
    const { rows } = await pool().query<{ list: string; url: string }>(
      "SELECT list, url FROM findings WHERE audit_id = $1 AND list = 'held'",
      [auditId],
    );
    const held = rows.length;
    // 104 URLs, 101 of them still 404 (three are indexed now); 40 declared, 37 of them 404 now.
    expect(xref.rows).toEqual([
      {
        bucket: 'http_404',
        reasons: ['Not found (404)'],
        matchingReasons: ['http_404', 'http_410'],
        named: 101,
        declared: 37,
        pruneMatching: 20,
        pruneOther: 7 - held,
        held,
        notFlagged: 10,
      },
    ]);
    expect(xref.indexed).toEqual({ named: 3, declared: 3, prune: 3, held: 0, notFlagged: 0 });
    expect(xref.unknownDeclared).toBe(0);
  });

  it('shows the column, the prune-with-care badge, the panel section and the linked cross-reference', async () => {
    const { FindingsPanel } = await import('@/app/(app)/audits/[id]/_components/review/findings-panel');
    const { FindingsTable } = await import('@/app/(app)/audits/[id]/_components/review/findings-table');
    const { GscCrossReference } = await import(
      '@/app/(app)/audits/[id]/_components/search-console/gsc-cross-reference'
    );
    const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query');
    const client = new QueryClient();
    const render = (node: ReactElement) =>
      renderToStaticMarkup(createElement(QueryClientProvider, { client }, node));
    const page = await findingsOf('list=prune');
    const table = render(
      createElement(FindingsTable, {
        items: page.items,
        columns: page.columns,
        list: 'prune',
        hasInlinks: false,
        emptyMessage: '',
        sort: 'id',
        focusIndex: 0,
        focusRequest: 0,
        isSelected: () => false,
        pageState: 'none',
        onFocusRow: () => {},
        onToggle: () => {},
        onTogglePage: () => {},
        onOpen: () => {},
        onSort: () => {},
        tableRef: { current: null },
      }),
    );
    expect(table).toContain('>Search Console</th>');
    expect(table.match(/Indexed — prune with care/g)).toHaveLength(3);
    expect(table.match(/Not indexed: 404/g)).toHaveLength(page.items.length - 3);

    const care = page.items.find((f) => f.url === indexedNow[0]) as FindingDto;
    const notFound = page.items.find((f) => f.reason === 'http_404') as FindingDto;
    const detailOf = async (finding: FindingDto) => {
      const res = await getFindingRoute(
        reviewer.request(`${base}/${auditId}/findings/${finding.id}`),
        ctx({ id: auditId, findingId: String(finding.id) }),
      );
      client.setQueryData(findingKeys.detail(auditId, finding.id), await res.json());
    };
    await detailOf(care);
    await detailOf(notFound);
    const panel = (finding: FindingDto) =>
      render(createElement(FindingsPanel, { auditId, finding, onDecide: () => {}, onClose: () => {} }));
    expect(panel(care)).toMatch(
      /<h3 id="panel-gsc">Search Console<\/h3>.*Indexed — prune with care.*prune with care \(it may/,
    );
    const notFoundPanel = panel(notFound);
    expect(notFoundPanel).toContain('Google says: <q data-testid="panel-gsc-reason">Not found (404)</q>');
    expect(notFoundPanel).toContain('Google&#x27;s reason agrees with ours.');
    expect(notFoundPanel).toMatch(/From a page-indexing export \(All known pages\), imported /);

    const xref = await get<GscCrossReferenceDto>(
      xrefRoute as typeof listRoute,
      auditId,
      'gsc/cross-reference',
    );
    client.setQueryData(gscCrossReferenceKeys.crossReference(auditId), xref);
    const section = render(createElement(GscCrossReference, { auditId }));
    expect(section).toContain('href="?list=prune&amp;gsc=http_404&amp;gscMatch=agrees#findings"');
    expect(section).toMatch(/aria-label="20 pruned for the same reason \(404\)"[^>]*>20</);
    expect(section).toMatch(/href="\?list=prune&amp;gsc=indexed#findings"[^>]*>3</);
  });
});

describe("a URL Inspection answer newer than the imports decides the review's state", () => {
  it('takes the newer of the latest import and the latest inspection, per key', async () => {
    reviewer ??= await testCaller('reviewer');
    const at = (p: string) => `https://inspected.example${p}`;
    const auditId = await reconciledAuditOf('GSC inspection wins', {
      sitemaps: { 'sitemap.xml': urlsetXml([at('/a'), at('/b'), at('/c')]) },
      crawl: ['/a', '/b', '/c', '/'].map((p) =>
        JSON.stringify({ url: at(p), status: p === '/' ? 200 : 404, crawled_at: '2026-11-01T00:00:00Z' }),
      ),
    });
    await insertImport(auditId, 'succeeded', '2026-11-25T00:00:00Z', [
      {
        url: at('/a'),
        state: 'not_indexed',
        reason: 'Not found (404)',
        lastCrawled: null,
        source: 'drilldown',
      },
      {
        url: at('/b'),
        state: 'not_indexed',
        reason: 'Not found (404)',
        lastCrawled: null,
        source: 'drilldown',
      },
    ]);
    const { rows: run } = await pool().query<{ id: string }>(
      `INSERT INTO gsc_inspection_runs (audit_id, status, step, phase, created_by, property, request)
       VALUES ($1, 'succeeded', NULL, 'done', 'test', 'sc-domain:inspected.example', '{}') RETURNING id`,
      [auditId],
    );
    const inspect = (position: number, url: string, state: string, coverage: string, when: string) =>
      pool().query(
        `INSERT INTO gsc_inspections (run_id, position, audit_id, url, key, state, bucket, coverage_state, inspected_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          run[0]?.id,
          position,
          auditId,
          url,
          urlKeys(url, 'exact')?.key,
          state,
          state === 'indexed' ? null : bucketOf(coverage),
          coverage,
          when,
        ],
      );
    // /a: inspected after the import, indexed now. /b: inspected before it (the import wins). /c: only inspected.
    await inspect(0, at('/a'), 'indexed', 'Submitted and indexed', '2026-11-28T00:00:00Z');
    await inspect(1, at('/b'), 'indexed', 'Submitted and indexed', '2026-11-20T00:00:00Z');
    await inspect(2, at('/c'), 'not_indexed', 'Not found (404)', '2026-11-28T00:00:00Z');
    const page = await get<FindingPage>(listRoute, auditId, 'findings?list=prune&limit=100');
    const byUrl = new Map(page.items.map((f) => [f.url, f.gsc]));
    expect(byUrl.get(at('/a'))).toMatchObject({ state: 'indexed', source: 'inspection' });
    expect(byUrl.get(at('/b'))).toMatchObject({ state: 'not_indexed', source: 'drilldown', agrees: true });
    expect(byUrl.get(at('/c'))).toMatchObject({
      state: 'not_indexed',
      bucket: 'http_404',
      source: 'inspection',
    });
    const indexedOnly = await get<FindingPage>(
      listRoute,
      auditId,
      'findings?list=prune&gsc=indexed&limit=100',
    );
    expect(urlsOf(indexedOnly)).toEqual([at('/a')]);
  });
});
