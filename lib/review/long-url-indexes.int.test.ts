// A declared URL longer than a btree entry can hold (about 2,700 bytes: 2,048 characters of Cyrillic is
// 4 KB) must not stop the review indexes: the URL indexes are left out, every other one is built, and
// sorting by URL still answers.
import { describe, expect, it } from 'vitest';
import { GET as listFindings } from '@/app/api/v1/audits/[id]/findings/route';
import { pool } from '@/lib/db/client';
import { partitionName } from '@/lib/db/partitions';
import type { FindingPage } from '@/lib/findings/schema';
import { reviewIndexes } from '@/lib/review/indexes';
import { buildReviewIndexes } from '@/lib/review/mutations';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';

describe('review indexes with a URL too long for a btree entry', () => {
  it('leave out only the indexes that hold the URL, and sorting by URL still works', async () => {
    // Varied letters: Postgres compresses an index entry, and a repeated one would fit.
    let seed = 7;
    const letters = Array.from({ length: 2000 }, () => {
      seed = (seed * 48271) % 2147483647;
      return String.fromCharCode(0x430 + (seed % 32));
    });
    const long = `https://a.example/${letters.join('')}`;
    const locs = [long, ...Array.from({ length: 20 }, (_, i) => `https://a.example/p/${i}`)];
    const auditId = await reconciledAuditOf('Long URL', {
      sitemaps: { 'a.xml': urlsetXml(locs) },
      crawl: [
        JSON.stringify({ url: 'https://a.example/p/0', status: 200, crawled_at: '2026-11-01T00:00:00Z' }),
      ],
    });

    const skipped = await buildReviewIndexes(auditId);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((name) => /url|path/.test(name))).toBe(true);

    const part = partitionName('findings', auditId);
    const { rows } = await pool().query<{ relname: string }>(
      `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname LIKE $1 AND i.indisvalid`,
      [`${part}%`],
    );
    const built = new Set(rows.map((r) => r.relname));
    const wanted = reviewIndexes(part).map((index) => index.name);
    for (const name of wanted) expect(built.has(name), name).toBe(!skipped.includes(name));
    expect(built.has(`${part}_reason_idx`)).toBe(true);

    const viewer = await testCaller('viewer');
    const res = await listFindings(
      viewer.request(`http://localhost/api/v1/audits/${auditId}/findings?list=prune&sort=url&limit=100`),
      { params: Promise.resolve({ id: auditId }) },
    );
    expect(res.status).toBe(200);
    const page = (await res.json()) as FindingPage;
    // p/0 was crawled (200): the other 19 and the long one are unreached, in URL order.
    expect(page.items).toHaveLength(20);
    const urls = page.items.map((item) => item.url);
    expect(urls).toEqual([...urls].sort());
    expect(urls.at(-1)).toBe(long);
  });
});
