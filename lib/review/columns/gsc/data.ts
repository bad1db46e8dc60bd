// The review's Search Console column: each row's key's current state (lib/findings/evidence/gsc-current.ts),
// the `gsc` and `gscMatch` filters, and whether the audit has any Search Console data yet.
import 'server-only';
import { pool } from '@/lib/db/client';
import { gscConditionSql } from '@/lib/findings/evidence/gsc';
import { currentGscStatesSql } from '@/lib/findings/evidence/gsc-current';
import type { GscStateRow } from '@/lib/findings/types';
import type { ReviewColumn } from '../types';
import { toGsc, toGscDetail } from './dto';

/** The current state of the keys of `ids` that one is known for. The keys' condition is an array built
 * first, so it reaches the current states' subquery (a condition on its DISTINCT ON key) and reads them
 * through gsc_url_states (audit_id, key): a page costs what its rows do. */
async function gscStates(auditId: string, ids: readonly number[]): Promise<Map<number, GscStateRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool().query<GscStateRow>(
    `WITH k AS MATERIALIZED (SELECT f.id, f.key FROM findings f WHERE f.audit_id = $1 AND f.id = ANY($2::int[]))
     SELECT k.id AS finding_id, g.url, g.state, g.reason, g.bucket, to_char(g.last_crawled, 'YYYY-MM-DD') AS last_crawled,
            g.scope, g.source, g.import_id, g.imported_at
       FROM (${currentGscStatesSql('$1')}) g JOIN k ON k.key = g.key
      WHERE g.key = ANY (ARRAY(SELECT key FROM k))`,
    [auditId, ids],
  );
  return new Map(rows.map((r) => [r.finding_id, r]));
}

const reasonsOf = (finding: { reason: string; reasons: string[] | null }) =>
  finding.reasons ?? [finding.reason];

export const gscColumn: ReviewColumn<'gsc', GscStateRow> = {
  field: 'gsc',
  flag: 'gsc',
  label: 'Search Console',
  // A match without a bucket is refused by the condition itself.
  where: (filter, audit) =>
    filter.gsc || filter.gscMatch ? gscConditionSql(audit, filter.gsc, filter.gscMatch) : null,
  narrows: (filter) => Boolean(filter.gsc && filter.gsc !== 'unknown'),
  // Any succeeded import or inspected URL (else the column has nothing to say).
  present: async (auditId) => {
    const { rows } = await pool().query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM gsc_imports WHERE audit_id = $1 AND status = 'succeeded')
           OR EXISTS (SELECT 1 FROM gsc_inspections WHERE audit_id = $1 AND state IS NOT NULL) AS any`,
      [auditId],
    );
    return rows[0]?.any ?? false;
  },
  load: gscStates,
  summary: (row, finding) => toGsc(row, reasonsOf(finding)),
  detail: (row, finding) => toGscDetail(row, reasonsOf(finding)),
};
