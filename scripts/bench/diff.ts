// BENCH_DIFF_ONLY=1: a site's two 1,000,000-URL runs, the change events between them (the settling
// transaction of the second) and GET …/diff on the pair. The first run is the bench's reconciled audit; the
// second is derived from it in SQL (no second ingest): 1 % of the URLs dropped (every other one of them now
// redirecting, in its crawl, to one of the 1 % added), 1 % with the next day's lastmod, and 1 % of its prune
// rows with another reason and 1 % gone.
import { randomUUID } from 'node:crypto';
import { deleteAudit, insertAudit } from '@/lib/audits/mutations';
import { pool, transaction } from '@/lib/db/client';
import { createAttachedPartition, partitionName } from '@/lib/db/partitions';
import { auditDiff } from '@/lib/sites/diff/data';
import { settleSiteRun } from '@/lib/sites/settle';

const seconds = (since: number) => Math.round((performance.now() - since) / 10) / 100;

/** Entries of `to` from those of `from`: position % 100 = 1 dropped, = 2 a day later, = 3 copied once more
 * under a new key (the added URLs). */
const ENTRIES_SQL = `
  INSERT INTO sitemap_entries (audit_id, file_id, position, loc, key, lastmod)
  SELECT $2::uuid, e.file_id, e.position, e.loc, e.key,
         CASE WHEN e.position % 100 = 2 THEN coalesce(e.lastmod, '2026-01-01') + interval '1 day' ELSE e.lastmod END
    FROM sitemap_entries e WHERE e.audit_id = $1 AND e.position % 100 <> 1
  UNION ALL
  SELECT $2::uuid, e.file_id, e.position + 1000000000, e.loc || '-new', e.key || '-new', e.lastmod
    FROM sitemap_entries e WHERE e.audit_id = $1 AND e.position % 100 = 3 AND e.key IS NOT NULL`;

/** The crawl of `to`: that of `from`, plus a 301 from every other dropped URL to the next added one. */
const CRAWL_SQL = `
  INSERT INTO crawl_pages (audit_id, line, url, key, status, redirect_url, redirect_key)
  SELECT $2::uuid, c.line, c.url, c.key, c.status, c.redirect_url, c.redirect_key
    FROM crawl_pages c WHERE c.audit_id = $1
  UNION ALL
  SELECT $2::uuid, 2000000000 - row_number() OVER ()::int, r.loc, r.key, 301, t.loc || '-new', t.key || '-new'
    FROM sitemap_entries r
    JOIN sitemap_entries t ON t.audit_id = $1 AND t.file_id = r.file_id AND t.position = r.position + 2
   WHERE r.audit_id = $1 AND r.position % 200 = 1 AND r.key IS NOT NULL AND t.key IS NOT NULL`;

export interface DiffBench {
  urls: number;
  buildSeconds: number;
  baselineSeconds: number;
  settleSeconds: number;
  events: Record<string, number>;
  confirmedUnreached: number;
  diffSeconds: number[];
  diffTypePageSeconds: number;
  diffCounts: Record<string, number>;
}

const SECOND_RUN = 'bench diff: second run';

export async function measureDiff(fromId: string, log: (message: string) => void): Promise<DiffBench> {
  // What an interrupted run left behind.
  const { rows: left } = await pool().query<{ id: string }>('SELECT id FROM audits WHERE name = $1', [
    SECOND_RUN,
  ]);
  for (const { id } of left) await deleteAudit(id);
  await pool().query(`DELETE FROM sites WHERE host LIKE 'bench-diff-%.example'`);
  const host = `bench-diff-${Date.now()}.example`;
  const site = await pool().query<{ id: string }>(
    'INSERT INTO sites (host, name) VALUES ($1, $1) RETURNING id',
    [host],
  );
  const siteId = site.rows[0]?.id as string;
  // The bench audit becomes the new site's first run (a quiet baseline, timed: 1,000,000 state rows).
  await pool().query('UPDATE audits SET site_id = $2, changes_applied_at = NULL WHERE id = $1', [
    fromId,
    siteId,
  ]);
  let started = performance.now();
  await transaction((client) => settleSiteRun(client, fromId, 'succeeded'));
  const baselineSeconds = seconds(started);
  log(`baseline of ${fromId}: ${baselineSeconds} s`);

  log('deriving the second run in SQL…');
  started = performance.now();
  const toId = randomUUID();
  await insertAudit(toId, SECOND_RUN, { normalization: 'exact' }, []);
  await pool().query(
    `UPDATE audits SET site_id = $2, status = 'succeeded', step = NULL, reconciled_at = now(), finished_at = now() WHERE id = $1`,
    [toId, siteId],
  );
  for (const table of ['sitemap_entries', 'crawl_pages', 'findings'] as const) {
    await createAttachedPartition(table, toId);
  }
  await pool().query(ENTRIES_SQL, [fromId, toId]);
  await pool().query(CRAWL_SQL, [fromId, toId]);
  await transaction(async (client) => {
    await client.query(
      'CREATE TEMP TABLE bench_findings ON COMMIT DROP AS SELECT * FROM findings WHERE audit_id = $1',
      [fromId],
    );
    await client.query(
      `UPDATE bench_findings SET audit_id = $1::uuid,
              reason = CASE WHEN list = 'prune' AND abs(hashtext(key)) % 100 = 7 AND reason <> 'http_404' THEN 'http_404' ELSE reason END`,
      [toId],
    );
    await client.query(`DELETE FROM bench_findings WHERE list = 'prune' AND abs(hashtext(key)) % 100 = 8`);
    await client.query('INSERT INTO findings SELECT * FROM bench_findings');
  });
  for (const table of ['sitemap_entries', 'crawl_pages', 'findings'] as const) {
    await pool().query(`ANALYZE "${partitionName(table, toId)}"`);
  }
  const buildSeconds = seconds(started);
  log(`second run ${toId} built in ${buildSeconds} s; settling it (change events, confirmation)…`);

  started = performance.now();
  await transaction((client) => settleSiteRun(client, toId, 'succeeded'));
  const settleSeconds = seconds(started);
  const events = await pool().query<{ type: string; n: number }>(
    'SELECT type, count(*)::int AS n FROM site_changes WHERE audit_id = $1 GROUP BY type ORDER BY type',
    [toId],
  );
  const confirmed = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM findings WHERE audit_id = $1 AND 'unreached_confirmed' = ANY(signals)`,
    [toId],
  );
  const urls = await pool().query<{ n: number }>(
    'SELECT count(*)::int AS n FROM site_urls WHERE site_id = $1',
    [siteId],
  );

  const diffSeconds: number[] = [];
  let diffCounts: Record<string, number> = {};
  for (let i = 0; i < 3; i++) {
    started = performance.now();
    const diff = await auditDiff(fromId, toId, { limit: 100 });
    diffSeconds.push(seconds(started));
    diffCounts = diff.counts;
  }
  started = performance.now();
  const first = await auditDiff(fromId, toId, { type: 'moved', limit: 100 });
  await auditDiff(fromId, toId, { type: 'moved', limit: 100, cursor: first.nextCursor ?? undefined });
  const diffTypePageSeconds = Math.round((seconds(started) / 2) * 100) / 100;

  // The pair stays in the bench's database only as long as this run: the second run's rows are dropped.
  await deleteAudit(toId);
  await pool().query('UPDATE audits SET site_id = NULL WHERE id = $1', [fromId]);
  await pool().query('DELETE FROM sites WHERE id = $1', [siteId]);
  return {
    urls: urls.rows[0]?.n ?? 0,
    buildSeconds,
    baselineSeconds,
    settleSeconds,
    events: Object.fromEntries(events.rows.map((r) => [r.type, r.n])),
    confirmedUnreached: confirmed.rows[0]?.n ?? 0,
    diffSeconds,
    diffTypePageSeconds,
    diffCounts,
  };
}
