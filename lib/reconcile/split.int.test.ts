// Large declared sets are classified by two sessions at once (lib/reconcile/mutations.ts). Here the
// threshold is lowered so a small audit takes that path, and every finding must equal the one-session
// result: ids, lists, reasons and evidence.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { runIngest } from '@/lib/jobs/ingest';
import { runReconcile } from '@/lib/jobs/reconcile';

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
  await runIngest({ auditId: id, attempt: 1 });
  process.env.RECONCILE_SPLIT_MIN = splitMin;
  await runReconcile({ auditId: id, attempt: 1 });
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
  const staging = await pool().query('SELECT to_regclass($1) AS t', [
    `findings_half_${id.replaceAll('-', '')}`,
  ]);
  return { rows, counts: counts.rows, staging: staging.rows[0].t };
}

describe('reconciling in two sessions', () => {
  afterEach(() => {
    delete process.env.RECONCILE_SPLIT_MIN;
  });

  it('gives exactly the findings and counts of one session, and leaves no staging table', async () => {
    const one = await findingsWith('100000000');
    const two = await findingsWith('0');
    expect(two.rows).toEqual(one.rows);
    expect(two.counts).toEqual(one.counts);
    expect(two.staging).toBeNull();
    // Not vacuous: both halves and every kind of finding took part.
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
    expect(new Set(one.rows.map((r) => r.id % 2)).size).toBe(2);
  });
});
