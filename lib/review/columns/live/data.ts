// The review's live column: each row's latest finished spot-check (lib/findings/evidence/live.ts), the
// `verdict` filter, and whether the audit has any checked row yet.
import 'server-only';
import { pool } from '@/lib/db/client';
import {
  FINISHED_RUN_STATUSES,
  latestItemsSql,
  verdictConditionSql,
  verdictsOf,
} from '@/lib/findings/evidence/live';
import type { LatestCheckRow } from '@/lib/findings/types';
import type { ReviewColumn } from '../types';
import { toSpotCheck, toSpotCheckDetail } from './dto';

/** The latest finished spot-check item of each of `ids` that has one: the audit's runs, then each run's
 * items by primary key, so a page costs what its rows do. */
async function latestChecks(auditId: string, ids: readonly number[]): Promise<Map<number, LatestCheckRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool().query<LatestCheckRow>(
    `SELECT l.finding_id, l.run_id, l.verdict, l.live_reason, l.final_status, l.checked_at, l.chain, l.noindex,
            l.canonical, l.content_type, l.ms, l.error, l.explanation
       FROM ${latestItemsSql('$1', '$2::int[]')} l`,
    [auditId, ids],
  );
  return new Map(rows.map((r) => [r.finding_id, r]));
}

export const liveColumn: ReviewColumn<'spotCheck', LatestCheckRow> = {
  field: 'spotCheck',
  flag: 'live',
  label: 'Live (latest spot-check)',
  where: (filter, audit) => (filter.verdict ? verdictConditionSql(audit, verdictsOf(filter.verdict)) : null),
  narrows: (filter) => Boolean(filter.verdict && filter.verdict !== 'unchecked'),
  present: async (auditId) => {
    const { rows } = await pool().query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM spot_check_runs r
                       WHERE r.audit_id = $1 AND r.status::text = ANY($2::text[])
                         AND EXISTS (SELECT 1 FROM spot_check_items i WHERE i.run_id = r.id)) AS any`,
      [auditId, FINISHED_RUN_STATUSES],
    );
    return rows[0]?.any ?? false;
  },
  load: latestChecks,
  summary: (row) => toSpotCheck(row),
  detail: (row) => toSpotCheckDetail(row),
};
