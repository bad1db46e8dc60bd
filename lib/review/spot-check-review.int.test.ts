// Spot-check verdicts in the review: a row's live verdict is the latest finished run's
// (lib/findings/evidence/live.ts), shown on list rows and in the detail, filtered by `verdict` in the list,
// reason counts, preview, bulk decisions, export and spot-check filter runs, and the audit setting
// requireSpotCheckForUnreached that refuses approving unreached rows without a confirming check. Runs and
// items are written directly (a real check is proved in lib/spot-check/run.int.test.ts).
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as previewRoute } from '@/app/api/v1/audits/[id]/decisions/preview/route';
import { POST as decideRoute } from '@/app/api/v1/audits/[id]/decisions/route';
import { GET as exportRoute } from '@/app/api/v1/audits/[id]/export/route';
import { GET as getFindingRoute } from '@/app/api/v1/audits/[id]/findings/[findingId]/route';
import { GET as reasonsRoute } from '@/app/api/v1/audits/[id]/findings/reasons/route';
import { GET as listRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { GET as getAuditRoute, PATCH as patchAudit } from '@/app/api/v1/audits/[id]/route';
import type { AuditDto } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import type { FindingDetailDto, FindingPage } from '@/lib/findings/schema';
import { approvalBlockedReason } from '@/lib/review/decision-rule';
import { findingKeys } from '@/lib/review/hooks';
import { filteredIds } from '@/lib/spot-check/data';
import type { Verdict } from '@/lib/spot-check/types';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';

let admin: TestCaller;
let reviewer: TestCaller;
const base = 'http://localhost/api/v1/audits';
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;

/** 12 declared pages on one host: even ones unreached by the crawl, odd ones crawled and answering 404. */
async function auditWithFindings(name: string): Promise<{ auditId: string; ids: Map<string, number> }> {
  const urls: string[] = [];
  const crawl: string[] = [];
  for (let i = 1; i <= 12; i++) {
    const url = `https://a.example/p-${i}`;
    urls.push(url);
    if (i % 2 === 1) crawl.push(JSON.stringify({ url, status: 404, crawled_at: '2026-11-01T00:00:00Z' }));
  }
  const auditId = await reconciledAuditOf(name, { sitemaps: { 's.xml': urlsetXml(urls) }, crawl });
  const { rows } = await pool().query<{ id: number; url: string }>(
    'SELECT id, url FROM findings WHERE audit_id = $1',
    [auditId],
  );
  return { auditId, ids: new Map(rows.map((r) => [new URL(r.url).pathname.slice(1), r.id])) };
}

type RunStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';

/** A spot-check run of `status` with one item per entry, checked at the given instants. */
async function insertRun(
  auditId: string,
  status: RunStatus,
  items: { id: number; verdict: Verdict; at: string; chain?: unknown[] }[],
): Promise<string> {
  const isFinal = status !== 'queued' && status !== 'running';
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO spot_check_runs (audit_id, status, step, phase, created_by, request, finished_at)
     VALUES ($1, $2, $3, $4, 'test', '{"ids": [1]}', $5) RETURNING id`,
    [auditId, status, isFinal ? null : 'check', isFinal ? 'done' : 'checking', isFinal ? new Date() : null],
  );
  const runId = rows[0]?.id as string;
  for (const item of items) {
    await pool().query(
      `INSERT INTO spot_check_items (run_id, finding_id, list, reason, url, chain, final_url, final_status,
         content_type, verdict, live_reason, explanation, noindex, canonical, ms, checked_at)
       SELECT $1, f.id, f.list, f.reason, f.url, $3, f.url, 404, 'text/html', $4, NULL, 'checked in a test',
              false, NULL, 12, $5
         FROM findings f WHERE f.audit_id = $6 AND f.id = $2`,
      [runId, item.id, JSON.stringify(item.chain ?? []), item.verdict, item.at, auditId],
    );
  }
  return runId;
}

async function list(auditId: string, query: string): Promise<FindingPage> {
  const res = await listRoute(reviewer.request(`${base}/${auditId}/findings?${query}`), ctx({ id: auditId }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function decide(auditId: string, body: unknown) {
  const res = await decideRoute(
    reviewer.request(`${base}/${auditId}/decisions`, { method: 'POST', body: JSON.stringify(body) }),
    ctx({ id: auditId }),
  );
  return { status: res.status, body: await res.json() };
}

async function patch(auditId: string, body: unknown, caller = admin) {
  const res = await patchAudit(
    caller.request(`${base}/${auditId}`, { method: 'PATCH', body: JSON.stringify(body) }),
    ctx({ id: auditId }),
  );
  return { status: res.status, body: await res.json() };
}

async function decisionsOf(auditId: string): Promise<Map<number, string>> {
  const { rows } = await pool().query<{ id: number; decision: string }>(
    'SELECT id, decision FROM findings WHERE audit_id = $1',
    [auditId],
  );
  return new Map(rows.map((r) => [r.id, r.decision]));
}

const id = (ids: Map<string, number>, name: string) => ids.get(name) as number;

beforeAll(async () => {
  admin = await testCaller('admin');
  reviewer = await testCaller('reviewer');
});

describe("a row's live verdict is its latest finished check", () => {
  let auditId = '';
  let ids = new Map<string, number>();
  let newest = '';

  beforeAll(async () => {
    ({ auditId, ids } = await auditWithFindings('Latest verdict'));
    // p-2 and p-4 were checked twice: the later check wins, whichever run was created first.
    newest = await insertRun(auditId, 'succeeded', [
      { id: id(ids, 'p-2'), verdict: 'contradicted', at: '2026-12-01T10:00:00Z' },
      { id: id(ids, 'p-4'), verdict: 'dead', at: '2026-12-01T08:00:00Z' },
    ]);
    await insertRun(auditId, 'partial', [
      { id: id(ids, 'p-2'), verdict: 'confirmed', at: '2026-12-01T09:00:00Z' },
      { id: id(ids, 'p-4'), verdict: 'confirmed', at: '2026-12-01T07:00:00Z' },
      {
        id: id(ids, 'p-6'),
        verdict: 'confirmed',
        at: '2026-12-01T07:00:00Z',
        chain: [
          { url: 'https://a.example/p-6', status: 301, location: '/gone' },
          { url: 'https://a.example/gone', status: 404, location: null },
        ],
      },
    ]);
    // Newer, but unfinished, failed or cancelled: they say nothing.
    for (const status of ['running', 'failed', 'cancelled', 'queued'] as const) {
      await insertRun(auditId, status, [
        { id: id(ids, 'p-6'), verdict: 'contradicted', at: '2026-12-01T12:00:00Z' },
        { id: id(ids, 'p-8'), verdict: 'confirmed', at: '2026-12-01T12:00:00Z' },
      ]);
    }
  });

  it('decides the Live column for the audit, not the page: a page of unchecked rows still has it', async () => {
    const unchecked = await list(auditId, 'list=prune&verdict=unchecked&limit=2');
    expect(unchecked.items.length).toBeGreaterThan(0);
    expect(unchecked.items.every((f) => f.spotCheck === null)).toBe(true);
    expect(unchecked.columns).toEqual({ live: true, gsc: false });
    // Only runs that are not finished (or finished with nothing checked): no column.
    const other = await auditWithFindings('live-column');
    const firstId = id(other.ids, 'p-1');
    for (const status of ['running', 'failed', 'cancelled', 'queued'] as const) {
      await insertRun(other.auditId, status, [
        { id: firstId, verdict: 'confirmed', at: '2026-12-01T12:00:00Z' },
      ]);
    }
    await insertRun(other.auditId, 'succeeded', []);
    expect((await list(other.auditId, 'list=prune')).columns).toEqual({ live: false, gsc: false });
  });

  it('shows the newest checked_at of a finished run on the list rows', async () => {
    const page = await list(auditId, 'list=prune&reason=unreached_by_crawl&limit=100');
    const byUrl = new Map(page.items.map((f) => [new URL(f.url).pathname.slice(1), f.spotCheck]));
    expect(byUrl.get('p-2')).toEqual({
      verdict: 'contradicted',
      liveReason: null,
      finalStatus: 404,
      checkedAt: '2026-12-01T10:00:00.000Z',
      runId: newest,
    });
    expect(byUrl.get('p-4')?.verdict).toBe('dead');
    expect(byUrl.get('p-6')?.verdict).toBe('confirmed');
    // Checked only by runs that did not finish well.
    expect(byUrl.get('p-8')).toBeNull();
    expect(byUrl.get('p-10')).toBeNull();
  });

  it('gives the detail the hop chain and the evidence', async () => {
    const findingId = String(id(ids, 'p-6'));
    const res = await getFindingRoute(
      reviewer.request(`${base}/${auditId}/findings/${findingId}`),
      ctx({ id: auditId, findingId }),
    );
    const detail: FindingDetailDto = await res.json();
    expect(detail.spotCheck).toMatchObject({
      verdict: 'confirmed',
      chain: [
        { url: 'https://a.example/p-6', status: 301, location: '/gone' },
        { url: 'https://a.example/gone', status: 404, location: null },
      ],
      contentType: 'text/html',
      noindex: false,
      ms: 12,
      error: null,
      explanation: 'checked in a test',
    });
  });

  it('shows the verdict in the table and the chain, in order, in the side panel', async () => {
    const { FindingsPanel } = await import('@/app/(app)/audits/[id]/_components/review/findings-panel');
    const { FindingsTable } = await import('@/app/(app)/audits/[id]/_components/review/findings-table');
    const { QueryClient, QueryClientProvider } = await import('@tanstack/react-query');
    const page = await list(auditId, 'list=prune&reason=unreached_by_crawl&limit=100');
    const finding = page.items.find((f) => f.id === id(ids, 'p-6')) as FindingPage['items'][number];
    const findingId = String(finding.id);
    const res = await getFindingRoute(
      reviewer.request(`${base}/${auditId}/findings/${findingId}`),
      ctx({ id: auditId, findingId }),
    );
    const client = new QueryClient();
    // The panel's own detail query, answered as the browser's would be.
    client.setQueryData(findingKeys.detail(auditId, finding.id), await res.json());
    const render = (node: ReactElement) =>
      renderToStaticMarkup(createElement(QueryClientProvider, { client }, node));
    const panel = render(
      createElement(FindingsPanel, {
        auditId,
        finding,
        approvalBlocked: approvalBlockedReason({ ...finding, spotCheck: null }, true),
        onDecide: () => {},
        onClose: () => {},
      }),
    );
    expect(panel).toContain('Live check');
    expect(panel).toMatch(
      /<ol class="[^"]*live-chain[^"]*"[^>]*><li><strong>301<\/strong> <span class="mono">https:\/\/a\.example\/p-6<\/span>.*Location: <span class="mono">\/gone<\/span>.*<\/li><li><strong>404<\/strong> <span class="mono">https:\/\/a\.example\/gone<\/span><\/li><\/ol>/,
    );
    expect(panel).toContain('checked in a test');
    // Approving is off, with the reason beside it.
    expect(panel).toMatch(
      /<input[^>]*disabled=""[^>]*aria-describedby="panel-approve-blocked"[^>]*value="approved"/,
    );
    expect(panel).toContain('spot-check this row first');
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
    expect(table).toContain('>Live</th>');
    expect(table.match(/data-verdict="[a-z_]+"/g)?.sort()).toEqual([
      'data-verdict="confirmed"',
      'data-verdict="contradicted"',
      'data-verdict="dead"',
    ]);
    expect(table).toContain('spot-verdict--dead');
  });

  it('filters the list, reason counts, preview, export and filter runs by verdict', async () => {
    const urls = (page: FindingPage) => page.items.map((f) => new URL(f.url).pathname.slice(1)).sort();
    expect(urls(await list(auditId, 'list=prune&verdict=confirmed'))).toEqual(['p-6']);
    expect(urls(await list(auditId, 'list=prune&verdict=dead'))).toEqual(['p-4']);
    expect(urls(await list(auditId, 'list=prune&verdict=confirming'))).toEqual(['p-4', 'p-6']);
    const unchecked = await list(auditId, 'list=prune&verdict=unchecked&limit=100');
    expect(unchecked.total).toBe(9);
    expect(urls(unchecked)).not.toContain('p-2');
    expect(urls(unchecked)).toContain('p-8');

    const reasons = await reasonsRoute(
      reviewer.request(`${base}/${auditId}/findings/reasons?list=prune&verdict=unchecked`),
      ctx({ id: auditId }),
    );
    expect((await reasons.json()).byReason).toEqual({ unreached_by_crawl: 3, http_404: 6 });

    const preview = await previewRoute(
      reviewer.request(
        `${base}/${auditId}/decisions/preview?list=prune&verdict=confirming&decision=approved`,
      ),
      ctx({ id: auditId }),
    );
    expect(await preview.json()).toMatchObject({ willChange: 2, alreadySet: 0 });

    const csv = await exportRoute(
      reviewer.request(`${base}/${auditId}/export?list=prune&decision=all&verdict=confirming`),
      ctx({ id: auditId }),
    );
    const lines = (await csv.text()).trim().split('\n');
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(['https://a.example/p-4', 'https://a.example/p-6']);
    const jsonl = await exportRoute(
      reviewer.request(`${base}/${auditId}/export?list=prune&decision=all&verdict=dead&format=jsonl`),
      ctx({ id: auditId }),
    );
    const rows = (await jsonl.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.url)).toEqual(['https://a.example/p-4']);

    expect(await filteredIds(auditId, { list: 'prune', verdict: 'contradicted' }, 10)).toEqual([
      id(ids, 'p-2'),
    ]);
  });

  it('approves by a verdict filter only the rows with that verdict', async () => {
    const result = await decide(auditId, {
      decision: 'approved',
      filter: { list: 'prune', verdict: 'confirming' },
    });
    expect(result).toMatchObject({ status: 200, body: { updated: 2 } });
    const decisions = await decisionsOf(auditId);
    const approved = [...decisions].filter(([, d]) => d === 'approved').map(([i]) => i);
    expect(approved.sort()).toEqual([id(ids, 'p-4'), id(ids, 'p-6')].sort());
  });
});

describe('requireSpotCheckForUnreached', () => {
  let auditId = '';
  let ids = new Map<string, number>();

  beforeAll(async () => {
    ({ auditId, ids } = await auditWithFindings('Require spot-check'));
    await insertRun(auditId, 'succeeded', [
      { id: id(ids, 'p-2'), verdict: 'confirmed', at: '2026-12-01T10:00:00Z' },
      { id: id(ids, 'p-4'), verdict: 'dead', at: '2026-12-01T10:00:00Z' },
      { id: id(ids, 'p-6'), verdict: 'orphan_live', at: '2026-12-01T10:00:00Z' },
    ]);
    // p-8 is confirmed only by a run that failed.
    await insertRun(auditId, 'failed', [
      { id: id(ids, 'p-8'), verdict: 'confirmed', at: '2026-12-01T11:00:00Z' },
    ]);
  });

  it('is off by default and changes nothing then', async () => {
    const res = await getAuditRoute(reviewer.request(`${base}/${auditId}`), ctx({ id: auditId }));
    expect(((await res.json()) as AuditDto).settings).toEqual({ requireSpotCheckForUnreached: false });
    const approve = await decide(auditId, { decision: 'approved', ids: [id(ids, 'p-6')] });
    expect(approve).toMatchObject({ status: 200, body: { updated: 1 } });
    expect(await decide(auditId, { decision: 'pending', ids: [id(ids, 'p-6')] })).toMatchObject({
      status: 200,
    });
  });

  it('is set by admins only, and returned in the audit', async () => {
    const refused = await patch(auditId, { settings: { requireSpotCheckForUnreached: true } }, reviewer);
    expect(refused.status).toBe(403);
    expect((await patch(auditId, { settings: { nope: true } })).status).toBe(400);
    const set = await patch(auditId, { settings: { requireSpotCheckForUnreached: true } });
    expect(set.status).toBe(200);
    expect((set.body as AuditDto).settings.requireSpotCheckForUnreached).toBe(true);
    const res = await getAuditRoute(reviewer.request(`${base}/${auditId}`), ctx({ id: auditId }));
    expect(((await res.json()) as AuditDto).settings.requireSpotCheckForUnreached).toBe(true);
  });

  it('refuses approving unconfirmed unreached rows by ids, whole, and says how many', async () => {
    const before = await decisionsOf(auditId);
    const refused = await decide(auditId, {
      decision: 'approved',
      ids: [id(ids, 'p-2'), id(ids, 'p-6'), id(ids, 'p-8')],
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('spot_check_required');
    expect(refused.body.error.message).toMatch(/^2 unreached_by_crawl rows have no confirming spot-check/);
    expect(await decisionsOf(auditId)).toEqual(before);
    // Confirmed and dead rows, and rows of other reasons, are approved as before.
    const ok = await decide(auditId, {
      decision: 'approved',
      ids: [id(ids, 'p-2'), id(ids, 'p-4'), id(ids, 'p-1')],
    });
    expect(ok).toMatchObject({ status: 200, body: { updated: 3 } });
    // Rejecting needs no check.
    expect(await decide(auditId, { decision: 'rejected', ids: [id(ids, 'p-6')] })).toMatchObject({
      status: 200,
    });
  });

  it('refuses a filter decision that would approve any unconfirmed row, approving none', async () => {
    const before = await decisionsOf(auditId);
    const refused = await decide(auditId, { decision: 'approved', filter: { list: 'prune' } });
    expect(refused.status).toBe(409);
    // p-8, p-10, p-12 are pending without a confirming check (p-6 is rejected: a filter skips it).
    expect(refused.body.error.message).toMatch(/^3 unreached_by_crawl rows/);
    expect(await decisionsOf(auditId)).toEqual(before);
    // With override the rejected p-6 would change too: 4.
    const overriding = await decide(auditId, {
      decision: 'approved',
      filter: { list: 'prune' },
      override: true,
    });
    expect(overriding.body.error.message).toMatch(/^4 unreached_by_crawl rows/);
    // The way out the message names: only the confirming rows (and rows of other reasons).
    const ok = await decide(auditId, { decision: 'approved', filter: { list: 'prune', reason: 'http_404' } });
    expect(ok).toMatchObject({ status: 200, body: { updated: 5 } });
    expect(await decide(auditId, { decision: 'pending', ids: [id(ids, 'p-4')] })).toMatchObject({
      status: 200,
    });
    expect(
      await decide(auditId, { decision: 'approved', filter: { list: 'prune', verdict: 'confirming' } }),
    ).toMatchObject({ status: 200, body: { updated: 1 } });
  });

  it('lets everything through again once switched off', async () => {
    expect((await patch(auditId, { settings: { requireSpotCheckForUnreached: false } })).status).toBe(200);
    const ok = await decide(auditId, {
      decision: 'approved',
      filter: { list: 'prune', reason: 'unreached_by_crawl' },
    });
    expect(ok).toMatchObject({ status: 200, body: { updated: 3 } });
  });
});
