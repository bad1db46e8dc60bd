// A finding's live verdict: the item of the LATEST finished spot-check run that checked
// it. Defined once, as SQL over the audit's few thousand spot_check_items (never over its findings), for
// the review list's column, the `verdict` filter (list, counts, decisions, preview, export, filter runs)
// and the approval rule of requireSpotCheckForUnreached. Pure: builds SQL text, runs nothing.
import type { Verdict } from '@/lib/spot-check/types';

/** Every verdict a checked row can get (lib/spot-check/verdict.ts decides which). */
export const VERDICTS = [
  'confirmed',
  'contradicted',
  'changed',
  'orphan_live',
  'dead',
  'recovered',
  'error',
] as const satisfies readonly Verdict[];

/** Runs whose items count: a finished run, all of it checked (succeeded) or some rows given up (partial).
 * A queued, running, failed or cancelled run says nothing yet, or nothing to rely on. */
export const FINISHED_RUN_STATUSES = ['succeeded', 'partial'] as const;

/** What the `verdict` filter takes: a verdict, `confirming` (confirmed or dead: the live site agrees the
 * row should go, see CONFIRMING) or `unchecked` (no finished run checked it). */
export const VERDICT_FILTERS = [...VERDICTS, 'confirming', 'unchecked'] as const;
export type VerdictFilter = (typeof VERDICT_FILTERS)[number];

/** Verdicts that back an approval: `confirmed` (the reason still holds) and `dead` (an unreached or held
 * row that answers 404/410: the page is gone, so pruning it is right too). */
export const CONFIRMING: readonly Verdict[] = ['confirmed', 'dead'];

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The latest finished item per finding of the audit whose id is the SQL expression `audit`, optionally
 * only for the findings of `ids` (an SQL int[] expression). The newest `checked_at` wins; two runs that
 * checked a row at the same millisecond are ordered by the run's finish, then its id, so the answer is
 * stable. Reads the audit's runs (by audit_id) and their items by the primary key's run_id prefix.
 */
export function latestItemsSql(audit: string, ids?: string): string {
  return `(SELECT DISTINCT ON (i.finding_id) i.*
     FROM spot_check_runs r JOIN spot_check_items i ON i.run_id = r.id
    WHERE r.audit_id = ${audit}::uuid AND r.status IN (${quoted(FINISHED_RUN_STATUSES)})${
      ids ? ` AND i.finding_id = ANY(${ids})` : ''
    }
    ORDER BY i.finding_id, i.checked_at DESC, r.finished_at DESC NULLS LAST, r.id DESC)`;
}

/** The verdicts a filter value stands for; null for `unchecked`. */
export function verdictsOf(filter: VerdictFilter): readonly Verdict[] | null {
  if (filter === 'unchecked') return null;
  if (filter === 'confirming') return CONFIRMING;
  return [filter];
}

/**
 * A condition over `findings f` (audit `audit`): the row's latest verdict is one of `verdicts`, or, with
 * null, no finished run checked it. An IN over the audit's latest items: a hashed semi-join (or anti-join)
 * of at most a few thousand ids, whatever the size of the audit.
 */
export function verdictConditionSql(audit: string, verdicts: readonly Verdict[] | null): string {
  if (verdicts === null) return `f.id NOT IN (SELECT l.finding_id FROM ${latestItemsSql(audit)} l)`;
  return `f.id IN (SELECT l.finding_id FROM ${latestItemsSql(audit)} l WHERE l.verdict IN (${quoted(verdicts)}))`;
}
