import { beforeAll, describe, expect, it } from 'vitest';
import { GET as previewRoute } from '@/app/api/v1/audits/[id]/decisions/preview/route';
import { POST as decide } from '@/app/api/v1/audits/[id]/decisions/route';
import { GET as getFinding } from '@/app/api/v1/audits/[id]/findings/[findingId]/route';
import { GET as listFindings } from '@/app/api/v1/audits/[id]/findings/route';
import type { FindingDto, FindingPage } from '@/lib/findings/schema';
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
