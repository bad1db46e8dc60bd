// The review indexes of an audit's findings partition (filters, sorts, search), built after the
// reconcile job has made the findings available. CONCURRENTLY, so decisions are never blocked; every
// step can be re-run after a crash (an interrupted concurrent build leaves an invalid index, dropped here).
import { pool } from '@/lib/db/client';
import { partitionName } from '@/lib/db/partitions';

export function reviewIndexes(part: string): { name: string; definition: string }[] {
  const on = (name: string, columns: string, using = '') => ({
    name: `${part}_${name}`,
    definition: `ON "${part}" ${using}(${columns})`,
  });
  return [
    on('reason_idx', 'audit_id, list, reason, id'),
    on('decision_idx', 'audit_id, list, decision, id'),
    on('url_idx', 'audit_id, list, url, id'),
    on('lastmod_idx', 'audit_id, list, lastmod, id'),
    // Reasons and decisions cluster in real sitemaps (all the 404s under one old section): a sort over a
    // reason or decision filter gets an index of its own instead of filtering a sort-order scan.
    on('reason_url_idx', 'audit_id, list, reason, url, id'),
    on('reason_lastmod_idx', 'audit_id, list, reason, lastmod, id'),
    on('decision_url_idx', 'audit_id, list, decision, url, id'),
    on('decision_lastmod_idx', 'audit_id, list, decision, lastmod, id'),
    on('host_idx', 'audit_id, list, host, id'),
    // Covers what a filter-first page reads (sort keys), so a path filter never touches the table.
    {
      name: `${part}_path_idx`,
      definition: `ON "${part}" (audit_id, list, path text_pattern_ops) INCLUDE (id, url, lastmod)`,
    },
    on('url_trgm_idx', 'url gin_trgm_ops', 'USING gin '),
  ];
}

/** Builds what is missing, then VACUUM ANALYZE (fresh statistics; index-only scans for counts). */
export async function buildReviewIndexes(auditId: string): Promise<void> {
  const part = partitionName('findings', auditId);
  const { rows } = await pool().query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [
    part,
  ]);
  if (!rows[0]?.exists) return; // the audit was deleted or re-reconciled meanwhile
  for (const index of reviewIndexes(part)) {
    const { rows: state } = await pool().query<{ valid: boolean }>(
      'SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1',
      [index.name],
    );
    if (state[0]?.valid) continue;
    if (state[0]) await pool().query(`DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`);
    await pool().query(`CREATE INDEX CONCURRENTLY "${index.name}" ${index.definition}`);
  }
  await pool().query(`VACUUM (ANALYZE) "${part}"`);
}
