// The cross-reference read: per Search Console bucket, the URLs it names now, how many
// the audit declares, and of those which we prune for a matching reason, prune for another, hold, or leave
// alone; the same for indexed URLs ("prune with care").
import 'server-only';
import { transaction } from '@/lib/db/client';
import { matchingReasonsSql, reasonsMatchSql } from '@/lib/findings/evidence/gsc';
import { currentGscStatesSql } from '@/lib/findings/evidence/gsc-current';
import { GSC_BUCKETS, type GscBucket, matchingFindingReasons } from '@/lib/findings/evidence/gsc-reasons';
import { findingsSummaryOf } from '@/lib/review/data';
import type { GscCrossReferenceDto, GscCrossReferenceRow } from './types';

interface CountRow {
  state: 'indexed' | 'not_indexed';
  bucket: string | null;
  reasons: string[] | null;
  named: number;
  declared: number;
  prune_matching: number;
  prune_other: number;
  held: number;
  not_flagged: number;
}

/**
 * One pass over the audit's current states (at most a few hundred thousand keys), hash-joined with the
 * audit's sitemap entries (`declared`) and its prune and held rows: neither has a key index, so one scan of
 * each. A key has at most one prune or held finding (the reconciliation
 * judges each declared key once), so counts are of rows.
 */
export async function gscCrossReference(auditId: string): Promise<GscCrossReferenceDto> {
  const rows = await transaction(async (client) => {
    // Hash joins whatever the estimates say: the planner takes the current states for one row (a DISTINCT
    // ON over a join) and would loop over the audit's entries and findings once per key.
    await client.query('SET LOCAL enable_nestloop = off; SET LOCAL enable_mergejoin = off');
    return (
      await client.query<CountRow>(
        `WITH g AS MATERIALIZED (
       SELECT g.key, g.state, g.bucket, g.reason, ${matchingReasonsSql('g.bucket')} AS matching
         FROM (${currentGscStatesSql('$1')}) g),
     -- The named keys some entry declares: one scan of the audit's entries (they have no key index),
     -- probing a hash of the named keys.
     d AS MATERIALIZED (
       SELECT DISTINCT e.key FROM sitemap_entries e JOIN g ON g.key = e.key WHERE e.audit_id = $1),
     x AS (
       SELECT g.*, d.key IS NOT NULL AS declared, f.list,
              g.matching IS NOT NULL AND ${reasonsMatchSql('g.matching')} AS matches
         FROM g LEFT JOIN d ON d.key = g.key
         LEFT JOIN findings f ON f.audit_id = $1 AND f.key = g.key AND f.list IN ('prune', 'held'))
     SELECT state, CASE WHEN state = 'not_indexed' THEN coalesce(bucket, 'other') END AS bucket,
            array_agg(DISTINCT reason) FILTER (WHERE reason IS NOT NULL) AS reasons,
            count(*)::int AS named,
            count(*) FILTER (WHERE declared)::int AS declared,
            count(*) FILTER (WHERE declared AND list = 'prune' AND matches)::int AS prune_matching,
            count(*) FILTER (WHERE declared AND list = 'prune' AND NOT matches)::int AS prune_other,
            count(*) FILTER (WHERE declared AND list = 'held')::int AS held,
            count(*) FILTER (WHERE declared AND list IS NULL)::int AS not_flagged
       FROM x GROUP BY 1, 2`,
        [auditId],
      )
    ).rows;
  });
  const summary = await findingsSummaryOf(auditId);
  const indexed = rows.find((r) => r.state === 'indexed');
  const byBucket = new Map(rows.filter((r) => r.state === 'not_indexed').map((r) => [r.bucket, r]));
  const out: GscCrossReferenceRow[] = [];
  for (const bucket of GSC_BUCKETS) {
    const r = byBucket.get(bucket);
    if (!r) continue;
    const matching = matchingFindingReasons(bucket as GscBucket);
    out.push({
      bucket,
      reasons: (r.reasons ?? []).sort(),
      matchingReasons: [...matching],
      named: r.named,
      declared: r.declared,
      pruneMatching: matching.length === 0 ? null : r.prune_matching,
      pruneOther: r.prune_other + (matching.length === 0 ? r.prune_matching : 0),
      held: r.held,
      notFlagged: r.not_flagged,
    });
  }
  const declaredNamed = rows.reduce((sum, r) => sum + r.declared, 0);
  return {
    rows: out,
    indexed: {
      named: indexed?.named ?? 0,
      declared: indexed?.declared ?? 0,
      prune: (indexed?.prune_matching ?? 0) + (indexed?.prune_other ?? 0),
      held: indexed?.held ?? 0,
      notFlagged: indexed?.not_flagged ?? 0,
    },
    unknownDeclared: Math.max(0, (summary?.declaredKeys ?? 0) - declaredNamed),
  };
}
