// Findings, decisions and export through the real route handlers, on a reconciled audit in Postgres.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { type FindingDto, type FindingPage, type FindingSort, SORTS } from '@/lib/findings/schema';
import { EXPORT_COLUMNS } from '@/lib/review/export/csv';
import { filterSql } from '@/lib/review/filter-sql';
import { reviewIndexes } from '@/lib/review/indexes';
import { buildReviewIndexes } from '@/lib/review/mutations';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, runAuditStep } from '@/lib/test-support/run-audit';
import { POST as decide } from './audits/[id]/decisions/route';
import { GET as exportFindings } from './audits/[id]/export/route';
import { GET as getFinding } from './audits/[id]/findings/[findingId]/route';
import { GET as byFile } from './audits/[id]/findings/by-file/route';
import { GET as listFindings } from './audits/[id]/findings/route';
import { GET as getAudit } from './audits/[id]/route';

const N = 600;
// Decisions are recorded under the caller's name; reads need any signed-in role.
const reviewers = {
  Ana: await testCaller('reviewer', 'Ana'),
  Bo: await testCaller('reviewer', 'Bo'),
  // A user's name is theirs to choose: it must not become a formula in a spreadsheet.
  '@mallory': await testCaller('reviewer', '@mallory'),
};
const viewer = await testCaller('viewer');
let auditId = '';
const base = 'http://localhost/api/v1/audits';

/** 600 declared pages on two hosts: every 3rd unreached, every 5th a 404 (every 50th a 410), some with
 * lastmod, depth and inlinks; plus 50 undeclared. */
async function reconciledAudit(): Promise<string> {
  const urls: string[] = [];
  const crawl: string[] = [];
  for (let i = 1; i <= N; i++) {
    const host = i % 2 ? 'a.example' : 'b.example';
    const url = `https://${host}/${i % 4 ? 'shop' : 'blog'}/item-${i}`;
    urls.push(
      `<url><loc>${url}</loc>${i % 7 ? `<lastmod>2026-0${(i % 9) + 1}-1${i % 10}</lastmod>` : ''}</url>`,
    );
    if (i % 3 === 0) continue;
    crawl.push(
      JSON.stringify({
        url,
        status: i % 5 === 0 ? (i % 50 === 0 ? 410 : 404) : 200,
        indexable: true,
        crawled_at: '2026-11-01T00:00:00Z',
        // Some rows without depth or inlinks, so those sorts have a null block.
        ...(i % 8 ? { depth: i % 4, inlinks: i % 11 } : {}),
      }),
    );
  }
  for (let i = 1; i <= 50; i++) {
    crawl.push(
      JSON.stringify({ url: `https://a.example/new/${i}`, status: 200, crawled_at: '2026-11-01T00:00:00Z' }),
    );
  }
  return reconciledAuditOf('Findings API', {
    sitemaps: {
      's.xml': `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
    },
    crawl,
  });
}

const ctx = () => ({ params: Promise.resolve({ id: auditId }) });
const findingCtx = (findingId: string) => ({ params: Promise.resolve({ id: auditId, findingId }) });

async function page(query: string): Promise<{ status: number; body: FindingPage }> {
  const res = await listFindings(viewer.request(`${base}/${auditId}/findings?${query}`), ctx());
  return { status: res.status, body: await res.json() };
}

async function allPages(query: string, limit = 37): Promise<FindingDto[]> {
  const items: FindingDto[] = [];
  let cursor: string | null = null;
  do {
    const { body } = await page(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    items.push(...body.items);
    cursor = body.nextCursor;
  } while (cursor);
  return items;
}

async function post(body: unknown, reviewer: keyof typeof reviewers = 'Ana') {
  const res = await decide(
    reviewers[reviewer].request(`${base}/${auditId}/decisions`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
    ctx(),
  );
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  auditId = await reconciledAudit();
});

describe('GET findings', () => {
  it('counts per list and reason on the audit', async () => {
    const audit = await (await getAudit(viewer.request(`${base}/${auditId}`), ctx())).json();
    expect(audit.findings.prune.byReason).toEqual({ unreached_by_crawl: 200, http_404: 72, http_410: 8 });
    expect(audit.findings.add).toEqual({ total: 50, byReason: { reachable_not_declared: 50 } });
    expect(audit.findings.decisions.prune).toEqual({ pending: 280, approved: 0, rejected: 0 });
  });

  it.each(SORTS)('walks every row exactly once with sort=%s, nulls last', async (sort) => {
    const items = await allPages(`list=prune&sort=${sort}`);
    expect(items).toHaveLength(280);
    expect(new Set(items.map((i) => i.id)).size).toBe(280);
    const column = sort.replace('-', '') as Exclude<FindingSort, `-${string}`>;
    const values = items.map((f) => f[column]);
    const nonNull = values.filter((v): v is string | number => v !== null);
    // Ties in the sort value are broken by id, in the same direction.
    const byId = items.flatMap((f) =>
      f[column] === null ? [] : [[f[column] as string | number, f.id] as const],
    );
    const sorted = [...byId].sort(([a, ai], [b, bi]) => (a < b ? -1 : a > b ? 1 : ai - bi));
    expect(byId).toEqual(sort.startsWith('-') ? sorted.reverse() : sorted);
    // Rows without the value form one block, last in both directions.
    expect(values.slice(nonNull.length).every((v) => v === null)).toBe(true);
    if (['lastmod', 'status', 'depth', 'inlinks'].includes(column)) expect(nonNull.length).toBeLessThan(280);
    // The order is not vacuous (decisions are sorted once some are made, below).
    if (column !== 'decision') expect(new Set(nonNull).size).toBeGreaterThan(1);
  });

  it('refuses a cursor made for another sort', async () => {
    const first = await page('list=prune&sort=url&limit=5');
    const wrong = await page(`list=prune&sort=status&limit=5&cursor=${first.body.nextCursor}`);
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toMatch(/cursor is not valid for this sort/);
  });

  it('filters by reason, host, path prefix and search, with exact totals', async () => {
    const gone = await page('list=prune&reason=http_404&limit=5');
    expect(gone.body.total).toBe(72);
    expect(gone.body.items.every((i) => i.reason === 'http_404' && i.evidence.status === 404)).toBe(true);
    const hostB = await allPages('list=prune&host=b.example');
    expect(hostB.every((i) => i.url.startsWith('https://b.example/'))).toBe(true);
    expect((await page('list=prune&host=b.example')).body.total).toBe(hostB.length);
    const blog = await allPages('list=prune&pathPrefix=/blog/');
    expect(blog.length).toBeGreaterThan(0);
    expect(blog.every((i) => new URL(i.url).pathname.startsWith('/blog/'))).toBe(true);
    const q = await page('list=prune&q=ITEM-30');
    // Declared item-30 and item-300..309 that are pruned (every 3rd unreached, every 5th a 404).
    const expectedIds = [30, 300, 303, 305, 306, 309];
    expect(q.body.items.map((i) => Number(i.url.split('-').pop())).sort((a, b) => a - b)).toEqual(
      expectedIds,
    );
    expect(q.body.items.every((i) => i.url.toLowerCase().includes('item-30'))).toBe(true);
    expect(q.body.total).toBe(q.body.items.length);
    expect((await page('list=prune&q=%25')).body.total).toBe(0); // a literal %, not a wildcard
  });

  it('rejects bad queries with specific messages', async () => {
    expect((await page('list=nope')).status).toBe(400);
    expect((await page('list=prune&limit=1001')).status).toBe(400);
    const bad = await page('list=prune&sort=url&cursor=garbage');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/cursor is not valid/);
  });

  it('shows reasons per sitemap file', async () => {
    const res = await (await byFile(viewer.request(`${base}/${auditId}/findings/by-file`), ctx())).json();
    expect(res.items).toEqual([
      {
        fileId: expect.any(Number),
        url: null,
        uploadName: 's.xml',
        byReason: { unreached_by_crawl: 200, http_404: 72, http_410: 8 },
      },
    ]);
  });
});

describe('decisions', () => {
  it('approves by ids, logs who and when, and moves the counts', async () => {
    const first = (await page('list=prune&reason=http_404&limit=3')).body.items.map((i) => i.id);
    const res = await post({ decision: 'approved', ids: first, note: 'gone for good' });
    expect(res).toEqual({ status: 200, body: { updated: 3, skipped: 0, unchanged: 0 } });
    // Approving approved rows says so, instead of "0 updated".
    expect((await post({ decision: 'approved', ids: first })).body).toEqual({
      updated: 0,
      skipped: 0,
      unchanged: 3,
    });
    const one = await (await getFinding(viewer.request('http://x'), findingCtx(String(first[0])))).json();
    expect(one).toMatchObject({ decision: 'approved', decidedBy: 'Ana', note: 'gone for good' });
    expect(one.history).toEqual([
      { from: 'pending', to: 'approved', by: 'Ana', at: expect.any(String), note: 'gone for good' },
    ]);
    const audit = await (await getAudit(viewer.request(`${base}/${auditId}`), ctx())).json();
    expect(audit.findings.decisions.prune).toEqual({ pending: 277, approved: 3, rejected: 0 });
  });

  it('applies a filter to every matching row, not only a page', async () => {
    const res = await post(
      { decision: 'rejected', filter: { list: 'prune', reason: 'unreached_by_crawl', host: 'a.example' } },
      'Bo',
    );
    const expected = (await page('list=prune&reason=unreached_by_crawl&host=a.example')).body.total;
    expect(res.body).toEqual({ updated: expected, skipped: 0, unchanged: 0 });
    expect((await page('list=prune&decision=rejected')).body.total).toBe(expected);
    const { rows } = await pool().query(
      "SELECT count(*)::int AS n FROM decision_log WHERE audit_id = $1 AND to_decision = 'rejected' AND decided_by = 'Bo'",
      [auditId],
    );
    expect(rows[0].n).toBe(expected);
  });

  it('keeps the log append-only', async () => {
    // The app's roles may not even try (lib/db/roles.int.test.ts); the owner is stopped by a trigger.
    await expect(
      pool().query("UPDATE decision_log SET note = 'rewritten' WHERE audit_id = $1", [auditId]),
    ).rejects.toThrow(/permission denied for table decision_log/);
  });

  it('refuses malformed decisions', async () => {
    expect((await post({ decision: 'approved' })).status).toBe(400);
    expect((await post({ decision: 'maybe', ids: [1] })).status).toBe(400);
    expect((await post({ decision: 'approved', ids: [1], filter: { list: 'add' } })).status).toBe(400);
  });
});

describe('export', () => {
  async function download(query: string) {
    const res = await exportFindings(viewer.request(`${base}/${auditId}/export?${query}`), ctx());
    return { res, text: await res.text() };
  }

  it('streams exactly the approved rows as CSV with a sensible file name', async () => {
    const { res, text } = await download('list=prune&decision=approved&format=csv');
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="findings-api-prune-approved-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'url,reason,reasons,sitemap_files,status,lastmod,replace_with,target_status,decision,decided_by,decided_at,note',
    );
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .every((l) =>
          /^https:\/\/\S+,http_404,http_404,s\.xml,404,(\d{4}-\d\d-\d\dT[\d:.]+Z)?,,,approved,Ana,\d{4}-\d\d-\d\dT[\d:.]+Z,gone for good$/.test(
            l,
          ),
        ),
    ).toBe(true);
    expect(text.charCodeAt(0)).toBe('u'.charCodeAt(0)); // no byte order mark unless asked
  });

  it('neutralises cells a spreadsheet would run as a formula', async () => {
    const one = (await page('list=add&limit=1')).body.items[0];
    await post({ decision: 'approved', ids: [one?.id], note: '=HYPERLINK("http://evil","x")' }, '@mallory');
    const { text } = await download('list=add&decision=approved');
    const row = text.trimEnd().split('\n')[1];
    expect(row).toContain(`,'@mallory,`);
    expect(row?.endsWith(`,"'=HYPERLINK(""http://evil"",""x"")"`)).toBe(true);
  });

  it('exports every row of a list as JSONL', async () => {
    const { text } = await download('list=add&decision=all&format=jsonl');
    const rows = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(50);
    expect(Object.keys(rows[0])).toEqual([...EXPORT_COLUMNS]);
    expect(rows[0]).toMatchObject({
      reason: 'reachable_not_declared',
      reasons: ['reachable_not_declared'],
      sitemap_files: [],
      status: 200,
      replace_with: null,
    });
  });

  it('exports only the rows matching the filters', async () => {
    const { text } = await download('list=prune&decision=all&host=b.example&reason=http_404&format=csv');
    const lines = text.trimEnd().split('\n').slice(1);
    expect(lines.length).toBe((await page('list=prune&host=b.example&reason=http_404')).body.total);
    expect(lines.every((l) => l.startsWith('https://b.example/') && l.includes(',http_404,'))).toBe(true);
    const q = await download('list=prune&decision=all&q=ITEM-30&format=jsonl');
    expect(q.text.trim().split('\n')).toHaveLength(6);
  });
});

describe('after decisions', () => {
  it('sorts by decision once there are several', async () => {
    const items = await allPages('list=prune&sort=-decision', 90);
    const values = items.map((f) => f.decision);
    expect(new Set(values).size).toBe(3);
    expect(values).toEqual([...values].sort().reverse());
  });
});

describe('review indexes', () => {
  it('are built in the background after reconciliation, and the audit says when they are ready', async () => {
    const before = await (await getAudit(viewer.request(`${base}/${auditId}`), ctx())).json();
    expect(before.findings.indexesReady).toBe(false);
    await runAuditStep('review_indexes', auditId);
    // A second build (a retried step after a crash) finds every index valid and builds nothing twice.
    await buildReviewIndexes(auditId);
    const { rows } = await pool().query(
      `SELECT count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = $1::regclass AND i.indisvalid`,
      [`findings_${auditId.replaceAll('-', '')}`],
    );
    expect(rows[0].n).toBe(1 + reviewIndexes('x').length); // the primary key and every review index
    const after = await (await getAudit(viewer.request(`${base}/${auditId}`), ctx())).json();
    expect(after.findings.indexesReady).toBe(true);
    expect((await page('list=prune&q=item-30&sort=url')).body.total).toBe(6);
  });

  it.each([
    [{ file: 1 }, '_files_idx'],
    [{ signal: 'multi_file' }, '_signals_idx'],
  ] as const)('answer the filter %j with %s (its expression matches the index)', async (filter, index) => {
    const f = filterSql(auditId, { list: 'prune', ...filter });
    const client = await pool().connect();
    try {
      // A table this small is cheaper to scan: forbid that, so only a matching index can answer.
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows } = await client.query(`EXPLAIN SELECT count(*) FROM findings f WHERE ${f.sql}`, f.params);
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(index);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

describe('before reconciliation', () => {
  it('answers 409 with the reason', async () => {
    const id = randomUUID();
    await insertAudit(id, 'not yet', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: 'https://example.com/' },
    ]);
    const res = await listFindings(viewer.request(`${base}/${id}/findings?list=prune`), {
      params: Promise.resolve({ id }),
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toMatch(/no findings yet/);
  });
});
