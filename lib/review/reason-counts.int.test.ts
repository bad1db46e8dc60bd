import { beforeAll, describe, expect, it } from 'vitest';
import { GET as reasonCounts } from '@/app/api/v1/audits/[id]/findings/reasons/route';
import { GET as listFindings } from '@/app/api/v1/audits/[id]/findings/route';
import { pool } from '@/lib/db/client';
import type { FindingPage } from '@/lib/findings/schema';
import { decide } from '@/lib/review/mutations';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';

const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
let auditId = '';
let fileB = 0;

/** 300 declared pages in two files (b.xml: every 3rd), two hosts and two sections: every 3rd unreached,
 * every 5th crawled one a 404 (every 25th a 410), a few on a second host's redirect. */
async function reconciledAudit(): Promise<string> {
  const inFile: Record<'a' | 'b', string[]> = { a: [], b: [] };
  const crawl: string[] = [];
  for (let i = 1; i <= 300; i++) {
    const url = `https://${i % 2 ? 'a' : 'b'}.example/${i % 4 ? 'shop' : 'blog'}/item-${i}`;
    inFile[i % 3 === 1 ? 'b' : 'a'].push(url);
    if (i % 3 === 0) continue;
    const status = i % 5 === 0 ? (i % 25 === 0 ? 410 : 404) : i % 7 === 0 ? 301 : 200;
    const redirect = status === 301 ? { redirect_url: `https://a.example/moved/${i}` } : {};
    crawl.push(JSON.stringify({ url, status, ...redirect, crawled_at: '2026-11-01T00:00:00Z' }));
  }
  return reconciledAuditOf('Reason counts', {
    sitemaps: { 'a.xml': urlsetXml(inFile.a), 'b.xml': urlsetXml(inFile.b) },
    crawl,
  });
}

const ctx = () => ({ params: Promise.resolve({ id: auditId }) });

async function page(query: string): Promise<{ body: FindingPage }> {
  const res = await listFindings(viewer.request(`${base}/${auditId}/findings?${query}`), ctx());
  return { body: await res.json() };
}

beforeAll(async () => {
  auditId = await reconciledAudit();
  const { rows } = await pool().query<{ id: number }>(
    "SELECT id FROM sitemap_files WHERE audit_id = $1 AND upload_name = 'b.xml'",
    [auditId],
  );
  fileB = rows[0]?.id ?? 0;
  // Some decided rows, so a decision filter narrows the counts.
  await decide(
    auditId,
    { filter: { list: 'prune', host: 'a.example', reason: 'http_404' } },
    {
      decision: 'approved',
      by: 'Ana',
      note: null,
    },
  );
});

describe('reason counts that follow the filters', () => {
  async function counts(query: string) {
    const res = await reasonCounts(viewer.request(`${base}/${auditId}/findings/reasons?${query}`), ctx());
    return { status: res.status, body: await res.json() };
  }

  it('counts the whole list from the kept counts, ignoring a reason filter', async () => {
    // 100 unreached; of the 200 crawled, 40 are 404 or 410 (8 of them 410) and 22 more redirect.
    const all = {
      list: 'prune',
      total: 162,
      byReason: { unreached_by_crawl: 100, http_404: 32, http_410: 8, redirects: 22 },
    };
    expect(await counts('list=prune')).toEqual({ status: 200, body: all });
    expect((await counts('list=prune&reason=http_404')).body).toEqual(all);
    expect((await counts('list=held')).body).toEqual({ list: 'held', total: 0, byReason: {} });
  });

  it.each([
    'host=b.example',
    'decision=approved',
    'decision=pending&host=a.example',
    'q=item-1',
    'pathPrefix=/blog/',
    'pathPrefix=/blog/&host=b.example&q=7',
    'file={b}',
    'file={b}&decision=pending&q=shop',
  ])('gives each reason what its chip would show, with %s', async (given) => {
    const filters = given.replace('{b}', String(fileB));
    const { body } = await counts(`list=prune&${filters}`);
    let total = 0;
    for (const reason of ['unreached_by_crawl', 'http_404', 'http_410', 'redirects']) {
      const expected = (await page(`list=prune&${filters}&reason=${reason}&limit=1`)).body.total;
      expect(body.byReason[reason] ?? 0).toBe(expected);
      total += expected;
    }
    expect(total).toBeGreaterThan(0);
    expect(body.total).toBe(total);
    expect(body.total).toBeLessThan(162);
  });

  it('refuses a filter it does not know', async () => {
    expect((await counts('list=prune&sort=url')).status).toBe(400);
    expect((await counts('list=prune&signal=nope')).status).toBe(400);
  });
});
