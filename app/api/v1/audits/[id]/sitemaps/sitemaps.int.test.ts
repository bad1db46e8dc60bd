// The sitemap file list pages through any number of files: 12,345 files (more than the 10,000 a page can
// hold) read by keyset pages with no gap or repeat, each page saying how many there are in all.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import type { SitemapFilePage } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { GET } from './route';

const FILES = 12_345;
let auditId = '';
let viewer: TestCaller;

async function page(query: string): Promise<{ status: number; body: SitemapFilePage }> {
  const res = await GET(viewer.request(`http://localhost/api/v1/audits/${auditId}/sitemaps${query}`), {
    params: Promise.resolve({ id: auditId }),
  });
  return { status: res.status, body: (await res.json()) as SitemapFilePage };
}

beforeAll(async () => {
  auditId = randomUUID();
  await insertAudit(auditId, 'Many sitemap files', { normalization: 'exact' }, []);
  // One statement, as a tree walk of an index with 12,344 children would leave them: the index first.
  await pool().query(
    `INSERT INTO sitemap_files (audit_id, url, kind, depth, position, status, entries)
     SELECT $1, 'https://example.com/sitemap-' || n || '.xml', CASE WHEN n = 1 THEN 'index' ELSE 'urlset' END,
            CASE WHEN n = 1 THEN 0 ELSE 1 END, n, 'ok', 10
     FROM generate_series(1, $2::int) AS n`,
    [auditId, FILES],
  );
  const { rows } = await pool().query<{ id: number }>(
    'SELECT id FROM sitemap_files WHERE audit_id = $1 AND position = 1',
    [auditId],
  );
  await pool().query('UPDATE sitemap_files SET parent_id = $2 WHERE audit_id = $1 AND position > 1', [
    auditId,
    rows[0]?.id,
  ]);
  viewer = await testCaller('viewer', 'Vera Viewer');
});

describe('GET /audits/{id}/sitemaps', () => {
  it('pages through more than 10,000 files with no gap or repeat', async () => {
    const seen: number[] = [];
    let cursor: number | null = null;
    let pages = 0;
    do {
      const { status, body } = await page(`?limit=5000${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(status).toBe(200);
      expect(body.total).toBe(FILES);
      seen.push(...body.items.map((file) => file.position));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: FILES }, (_, i) => i + 1));
    // Parents come before their children: what has been read so far is always a tree.
    const first = await page('?limit=2');
    expect(first.body.items.map((file) => file.parentId)).toEqual([null, first.body.items[0]?.id]);
  });

  it('holds at most 10,000 files a page and says where the next page starts', async () => {
    const { body } = await page('');
    expect(body.items).toHaveLength(10_000);
    expect(body.nextCursor).toBe(10_000);
    const rest = await page(`?cursor=${body.nextCursor}`);
    expect(rest.body.items).toHaveLength(FILES - 10_000);
    expect(rest.body.nextCursor).toBeNull();
    expect((await page('?limit=10001')).status).toBe(400);
  });
});
