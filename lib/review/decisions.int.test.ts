import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as previewRoute } from '@/app/api/v1/audits/[id]/decisions/preview/route';
import { POST as decide } from '@/app/api/v1/audits/[id]/decisions/route';
import { GET as getFinding } from '@/app/api/v1/audits/[id]/findings/[findingId]/route';
import { GET as listFindings } from '@/app/api/v1/audits/[id]/findings/route';
import { databaseUrl, pool } from '@/lib/db/client';
import type { FindingDetailDto, FindingDto, FindingPage } from '@/lib/findings/schema';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';

const reviewers = { Ana: await testCaller('reviewer', 'Ana') };
const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
let auditId = '';

/** 200 declared pages on two hosts and two sections: every 2nd unreached, every 3rd (crawled) a 404. */
async function reconciledAudit(): Promise<string> {
  const urls: string[] = [];
  const crawl: string[] = [];
  for (let i = 1; i <= 200; i++) {
    const url = `https://${i % 4 < 2 ? 'a' : 'b'}.example/${i % 3 ? 'shop' : 'blog'}/item-${i}`;
    urls.push(url);
    if (i % 2 === 0) continue;
    crawl.push(JSON.stringify({ url, status: i % 3 === 0 ? 404 : 200, crawled_at: '2026-11-01T00:00:00Z' }));
  }
  return reconciledAuditOf('Decisions', { sitemaps: { 's.xml': urlsetXml(urls) }, crawl });
}

const ctx = () => ({ params: Promise.resolve({ id: auditId }) });
const findingCtx = (findingId: string) => ({ params: Promise.resolve({ id: auditId, findingId }) });

async function allPages(query: string, limit: number): Promise<FindingDto[]> {
  const items: FindingDto[] = [];
  let cursor: string | null = null;
  do {
    const url = `${base}/${auditId}/findings?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const body: FindingPage = await (await listFindings(viewer.request(url), ctx())).json();
    items.push(...body.items);
    cursor = body.nextCursor;
  } while (cursor);
  return items;
}

async function post(body: unknown) {
  const res = await decide(
    reviewers.Ana.request(`${base}/${auditId}/decisions`, {
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

describe('bulk decisions are safe', () => {
  const filter = { list: 'prune', reason: 'unreached_by_crawl', host: 'b.example' } as const;
  const query = 'list=prune&reason=unreached_by_crawl&host=b.example';
  let n = 0;
  let picked = 0;

  async function preview(params: string) {
    const res = await previewRoute(
      reviewers.Ana.request(`${base}/${auditId}/decisions/preview?${params}`),
      ctx(),
    );
    return { status: res.status, body: await res.json() };
  }
  const decisionOf = async (id: number) =>
    (await (await getFinding(viewer.request('http://x'), findingCtx(String(id)))).json()).decision;

  beforeAll(async () => {
    const rows = await allPages(query, 100);
    n = rows.length;
    picked = rows[3]?.id ?? 0;
    expect(n).toBeGreaterThan(10);
    expect(rows.every((r) => r.decision === 'pending')).toBe(true);
    expect((await post({ decision: 'rejected', ids: [picked] })).body.updated).toBe(1);
  });

  it('a filter decision leaves a rejected row rejected and says so, as its preview said', async () => {
    const said = await preview(`${query}&decision=approved`);
    expect(said).toEqual({
      status: 200,
      body: {
        willChange: n - 1,
        willSkip: 1,
        alreadySet: 0,
        byDecision: { pending: n - 1, approved: 0, rejected: 1 },
      },
    });
    const done = await post({ decision: 'approved', filter });
    expect(done.body).toEqual({ updated: n - 1, skipped: 1, unchanged: 0 });
    expect(await decisionOf(picked)).toBe('rejected');
    // Again: nothing left to change; the approved rows are reported as such, the rejected one as skipped.
    expect((await preview(`${query}&decision=approved`)).body).toMatchObject({
      willChange: 0,
      willSkip: 1,
      alreadySet: n - 1,
    });
    expect((await post({ decision: 'approved', filter })).body).toEqual({
      updated: 0,
      skipped: 1,
      unchanged: n - 1,
    });
  });

  it('changes decided rows with override, as its preview said', async () => {
    const said = await preview(`${query}&decision=approved&override=1`);
    expect(said.body).toMatchObject({ willChange: 1, willSkip: 0, alreadySet: n - 1 });
    const done = await post({ decision: 'approved', filter, override: true });
    expect(done.body).toEqual({ updated: 1, skipped: 0, unchanged: n - 1 });
    expect(await decisionOf(picked)).toBe('approved');
  });

  it('changes rows picked by id whatever their decision', async () => {
    expect((await post({ decision: 'rejected', ids: [picked] })).body).toEqual({
      updated: 1,
      skipped: 0,
      unchanged: 0,
    });
    expect(await decisionOf(picked)).toBe('rejected');
  });

  it('previews a filter the kept counts cannot answer exactly as the decision then does', async () => {
    // A path and a search: counted over the rows, with the filter's own decision as filterDecision.
    // Some of these rows were approved above (host b's unreached ones), some are pending.
    const params = 'list=prune&pathPrefix=/shop/&q=item-1';
    const said = (await preview(`${params}&decision=rejected&filterDecision=approved`)).body;
    expect(said.byDecision.approved).toBeGreaterThan(0);
    expect(said.byDecision.pending + said.byDecision.rejected).toBe(0);
    const all = (await preview(`${params}&decision=rejected`)).body;
    expect(all.willSkip).toBeGreaterThan(0);
    const done = await post({
      decision: 'rejected',
      filter: { list: 'prune', pathPrefix: '/shop/', q: 'item-1' },
    });
    expect(done.body).toEqual({ updated: all.willChange, skipped: all.willSkip, unchanged: all.alreadySet });
  });

  it('refuses a preview without a decision or with an unknown filter', async () => {
    expect((await preview('list=prune')).status).toBe(400);
    expect((await preview('list=prune&decision=approved&sort=url')).status).toBe(400);
  });
});

describe('a decision by id that meets a bulk decision on its row', () => {
  it('waits for the batch, then records its note on the row the batch decided the same way', async () => {
    const own = await reconciledAudit();
    const ownCtx = () => ({ params: Promise.resolve({ id: own }) });
    const { rows } = await pool().query<{ id: number; list: string; reason: string; host: string }>(
      "SELECT id, list, reason, host FROM findings WHERE audit_id = $1 AND decision = 'pending' ORDER BY id LIMIT 1",
      [own],
    );
    const row = rows[0];
    if (!row) throw new Error('no pending row');
    // A batch of a bulk approval in flight: the row approved (with its kept counts), not yet committed.
    const batch = new pg.Client({ connectionString: databaseUrl() });
    await batch.connect();
    await batch.query('BEGIN');
    await batch.query(
      "UPDATE findings SET decision = 'approved', decided_by = 'Bulk', decided_at = now() WHERE audit_id = $1 AND id = $2",
      [own, row.id],
    );
    await batch.query(
      `UPDATE finding_counts SET n = n + CASE decision WHEN 'pending' THEN -1 ELSE 1 END
        WHERE audit_id = $1 AND list = $2 AND reason = $3 AND host = $4 AND decision IN ('pending', 'approved')`,
      [own, row.list, row.reason, row.host],
    );
    await batch.query(
      `INSERT INTO finding_counts (audit_id, list, reason, decision, host, n) VALUES ($1, $2, $3, 'approved', $4, 1)
       ON CONFLICT DO NOTHING`,
      [own, row.list, row.reason, row.host],
    );
    const byId = decide(
      reviewers.Ana.request(`${base}/${own}/decisions`, {
        method: 'POST',
        body: JSON.stringify({ decision: 'approved', ids: [row.id], note: 'checked by hand' }),
        headers: { 'content-type': 'application/json' },
      }),
      ownCtx(),
    );
    // Until it waits for the batch's row lock.
    const waiting = async () =>
      (
        await pool().query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO decision_log%'`,
        )
      ).rows[0]?.n ?? 0;
    while ((await waiting()) === 0) {}
    await batch.query('COMMIT');
    await batch.end();

    const res = await byId;
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { updated: 0, skipped: 0, unchanged: 1 },
    });
    const detail: FindingDetailDto = await (
      await getFinding(viewer.request('http://x'), {
        params: Promise.resolve({ id: own, findingId: String(row.id) }),
      })
    ).json();
    expect(detail).toMatchObject({ decision: 'approved', decidedBy: 'Ana', note: 'checked by hand' });
    expect(detail.history[0]).toMatchObject({
      from: 'approved',
      to: 'approved',
      by: 'Ana',
      note: 'checked by hand',
    });
    // The note moved no count: the row was counted approved once, by the batch.
    const { rows: counts } = await pool().query<{ kept: number; counted: number }>(
      `SELECT (SELECT n FROM finding_counts WHERE audit_id = $1 AND list = $2 AND reason = $3 AND host = $4
                 AND decision = 'approved') AS kept,
              (SELECT count(*)::int FROM findings WHERE audit_id = $1 AND list = $2 AND reason = $3 AND host = $4
                 AND decision = 'approved') AS counted`,
      [own, row.list, row.reason, row.host],
    );
    expect(counts[0]?.kept).toBe(counts[0]?.counted);
  });
});
