// The audit page's seed is what the endpoints answer (so the hooks can use it as theirs), holds only the
// selected tab's reads, and leaves out a read the URL makes impossible instead of failing the page.
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as byFileRoute } from '@/app/api/v1/audits/[id]/findings/by-file/route';
import { GET as findingsRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { GET as auditRoute } from '@/app/api/v1/audits/[id]/route';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { loadAuditPage } from './page-data';

const S = 'https://seed.example.com';
let auditId = '';
let viewer: TestCaller;

async function answer(route: typeof auditRoute, url: string): Promise<unknown> {
  const res = await route(viewer.request(url), { params: Promise.resolve({ id: auditId }) });
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  auditId = await reconciledAuditOf('Seeded page', {
    sitemaps: { 'sitemap.xml': urlsetXml([`${S}/`, `${S}/gone`, `${S}/also-gone`]) },
    crawl: [
      JSON.stringify({ url: `${S}/`, status: 200, indexable: true }),
      JSON.stringify({ url: `${S}/gone`, status: 404 }),
      JSON.stringify({ url: `${S}/also-gone`, status: 410 }),
      JSON.stringify({ url: `${S}/new`, status: 200, indexable: true }),
    ],
  });
  viewer = await testCaller('viewer');
});

describe('loadAuditPage', () => {
  it('seeds the audit, the summary and the review as the API answers them', async () => {
    const seed = await loadAuditPage(auditId, new URLSearchParams());
    const base = `http://localhost/api/v1/audits/${auditId}`;
    // Timestamps, nested DTOs and all: the JSON the hooks would have read.
    expect(seed?.audit).toEqual(await answer(auditRoute, base));
    expect(seed?.byFile).toEqual(await answer(byFileRoute, `${base}/findings/by-file`));
    expect(seed?.review?.view.list).toBe('prune');
    expect(seed?.review?.page).toEqual(await answer(findingsRoute, `${base}/findings?list=prune&limit=100`));
    expect(seed?.review?.page.items.map((item) => item.url)).toEqual([`${S}/gone`, `${S}/also-gone`]);
    expect(seed?.review?.reasons.total).toBe(2);
    expect(seed?.spotChecks).toEqual({ runs: [] });
  });

  it('follows the URL: the list it names, and no review for another tab', async () => {
    const add = await loadAuditPage(auditId, new URLSearchParams({ list: 'add' }));
    expect(add?.review?.page.items.map((item) => item.url)).toEqual([`${S}/new`]);
    const files = await loadAuditPage(auditId, new URLSearchParams({ tab: 'files' }));
    expect(files?.audit.id).toBe(auditId);
    expect(files?.review).toBeUndefined();
    expect(files?.spotChecks).toBeUndefined();
  });

  it('leaves out what the URL makes impossible, and seeds nothing for no such audit', async () => {
    const broken = await loadAuditPage(auditId, new URLSearchParams({ cursor: 'not-a-cursor' }));
    expect(broken?.audit.id).toBe(auditId);
    expect(broken?.review).toBeUndefined();
    expect(
      await loadAuditPage('00000000-0000-4000-8000-000000000000', new URLSearchParams()),
    ).toBeUndefined();
    expect(await loadAuditPage('not-an-id', new URLSearchParams())).toBeUndefined();
  });
});
