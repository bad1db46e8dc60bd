// Large declared sets are classified by two sessions at once, each writing its own part of the audit's
// findings (lib/reconcile/mutations.ts). Here the threshold is lowered so a small audit takes that path:
// every finding must equal the one-session result (ids, lists, reasons and evidence), and review must work
// across the two parts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { findingsParts } from '@/lib/db/partitions';
import { listFindings } from '@/lib/review/data';
import { buildReviewIndexes, decideByFilter } from '@/lib/review/mutations';
import { runAuditStep } from '@/lib/test-support/run-audit';

const S = 'https://split.example';

/** 3,000 declared URLs in two files with every kind of finding (no duplicate keys), 300 undeclared pages. */
function inputs() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'split-'));
  const crawl: string[] = [];
  const files: string[] = [];
  for (let f = 0; f < 2; f++) {
    const urls: string[] = [];
    for (let i = f * 1500; i < (f + 1) * 1500; i++) {
      const url = `${S}/${['shop', 'blog', 'help'][i % 3]}/p-${i}`;
      urls.push(`<url><loc>${url}</loc><lastmod>2026-0${(i % 9) + 1}-15</lastmod></url>`);
      const kind = i % 10;
      if (kind === 0) continue; // unreached
      if (kind === 1) {
        crawl.push(JSON.stringify({ url: `${url}/`, status: 200, indexable: true })); // url_variant
        continue;
      }
      crawl.push(
        JSON.stringify({
          url,
          status: kind === 2 ? 404 : kind === 3 ? 301 : kind === 4 ? 0 : 200,
          redirect_url: kind === 3 ? `${S}/shop/p-${(i + 3) % 3000}` : undefined,
          canonical_url: kind === 5 ? `${S}/blog/p-${(i + 1) % 3000}` : url,
          indexable: kind !== 6,
          blocked_by_robots: kind === 7,
          crawled_at: '2026-05-01T00:00:00Z',
        }),
      );
    }
    const file = path.join(dir, `sitemap-${f}.xml`);
    writeFileSync(
      file,
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>`,
    );
    files.push(file);
  }
  for (let i = 0; i < 300; i++)
    crawl.push(JSON.stringify({ url: `${S}/new/n-${i}`, status: 200, indexable: true }));
  const crawlFile = path.join(dir, 'crawl.jsonl');
  writeFileSync(crawlFile, crawl.join('\n'));
  return { files, crawlFile };
}

async function findingsWith(splitMin: string) {
  const { files, crawlFile } = inputs();
  const id = randomUUID();
  await insertAudit(id, 'split', { normalization: 'exact' }, [
    ...files.map((f) => ({
      role: 'sitemap' as const,
      kind: 'upload' as const,
      fileName: path.basename(f),
      storedPath: f,
    })),
    { role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath: crawlFile },
  ]);
  await runAuditStep('ingest', id);
  process.env.RECONCILE_SPLIT_MIN = splitMin;
  await runAuditStep('reconcile', id);
  const { rows } = await pool().query(
    `SELECT id, list, reason, reasons, url, status, canonical, sitemap_file_id > 0 AS in_file, crawl_line, crawled_url,
            redirect_url, target_status, canonical_declared, variant_url, section, occurrences
       FROM findings WHERE audit_id = $1 ORDER BY id`,
    [id],
  );
  const counts = await pool().query(
    'SELECT list, reason, decision, host, n FROM finding_counts WHERE audit_id = $1 ORDER BY 1, 2, 3, 4',
    [id],
  );
  const parts = await findingsParts(id);
  return { id, rows, counts: counts.rows, parts };
}

/** Every finding id of a list, read page by page (keyset), in the order the pages give them. */
async function pagedIds(id: string, list: 'prune' | 'add'): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await listFindings(id, { list, sort: 'id', limit: 500, ...(cursor ? { cursor } : {}) });
    ids.push(...page.items.map((item) => item.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe('reconciling in two sessions', () => {
  afterEach(() => {
    delete process.env.RECONCILE_SPLIT_MIN;
  });

  it('gives exactly the findings and counts of one session, written as two parts of the audit', async () => {
    const one = await findingsWith('100000000');
    const two = await findingsWith('0');
    expect(two.rows).toEqual(one.rows);
    expect(two.counts).toEqual(one.counts);
    const hex = (auditId: string) => auditId.replaceAll('-', '');
    expect(one.parts).toEqual([`findings_${hex(one.id)}`]);
    expect(two.parts).toEqual([`findings2_${hex(two.id)}`, `findings_${hex(two.id)}`]);
    // Not vacuous: both parts and every kind of finding took part.
    expect(one.rows.length).toBeGreaterThan(2000);
    const reasons = new Set(one.rows.map((r) => r.reason));
    for (const reason of [
      'unreached_by_crawl',
      'url_variant',
      'http_404',
      'redirects',
      'no_response',
      'non_canonical',
      'noindex',
      'blocked_by_robots',
      'reachable_not_declared',
    ])
      expect(reasons).toContain(reason);
    const sizes = await pool().query<{ part: string; n: number; adds: number }>(
      `SELECT tableoid::regclass::text AS part, count(*)::int AS n, count(*) FILTER (WHERE list = 'add')::int AS adds
         FROM findings WHERE audit_id = $1 GROUP BY 1 ORDER BY 1`,
      [two.id],
    );
    expect(sizes.rows.map((r) => r.n).every((n) => n > 500)).toBe(true);
    // The add list is written by the second session, beside its part of the declared keys.
    const adds = one.rows.filter((r) => r.list === 'add').length;
    expect(adds).toBeGreaterThanOrEqual(300);
    expect(sizes.rows.find((r) => r.part.startsWith('findings2_'))?.adds).toBe(adds);

    // Review works across the two parts: pages in id order through the boundary, indexes on both, a
    // decision by filter on every matching row of both.
    const pruneIds = one.rows.filter((r) => r.list === 'prune').map((r) => r.id);
    expect(await pagedIds(two.id, 'prune')).toEqual(pruneIds);
    await buildReviewIndexes(two.id);
    const indexes = await pool().query<{ part: string; n: number }>(
      `SELECT c.relname AS part, count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
        WHERE c.relname = ANY($1) AND i.indisvalid GROUP BY 1 ORDER BY 1`,
      [two.parts],
    );
    expect(indexes.rows.map((r) => r.part)).toEqual(two.parts);
    expect(indexes.rows[0]?.n).toBe(indexes.rows[1]?.n);
    const updated = await decideByFilter(
      two.id,
      { list: 'prune', reason: 'http_404' },
      { decision: 'approved', by: 'Split Tester', note: null },
    );
    expect(updated).toBe(one.rows.filter((r) => r.reason === 'http_404').length);
    const approved = await pool().query<{ part: string }>(
      `SELECT DISTINCT tableoid::regclass::text AS part FROM findings WHERE audit_id = $1 AND decision = 'approved'`,
      [two.id],
    );
    expect(approved.rows).toHaveLength(2);
  });
});
