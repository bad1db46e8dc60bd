// Search Console against the findings: the `gsc` and `gscMatch` review filters and the
// cross-reference's "does Google's reason name one of ours" test, as SQL text over the current state of each
// key (lib/findings/evidence/gsc-current.ts). Pure: builds SQL, runs nothing.
import { AppError } from '@/lib/core/errors';
import { currentGscStatesSql } from './gsc-current';
import { GSC_BUCKETS, type GscBucket, matchingFindingReasons } from './gsc-reasons';

/** What the `gsc` filter takes: a state, `unknown` (Search Console says nothing of the key) or a bucket. */
export const GSC_FILTERS = ['indexed', 'not_indexed', 'unknown', ...GSC_BUCKETS] as const;
export type GscFilter = (typeof GSC_FILTERS)[number];

/** `gscMatch`: the bucket names one of the row's reasons (agrees) or names none (disagrees). */
export const GSC_MATCHES = ['agrees', 'disagrees'] as const;
export type GscMatch = (typeof GSC_MATCHES)[number];

export function isGscBucket(value: string): value is GscBucket {
  return (GSC_BUCKETS as readonly string[]).includes(value);
}

/** Closed lists (reasons.ts), so written into the SQL as literals. */
const textArray = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(', ')}]::text[]`;

/** True when one of `reasons` (the finding's, first = reason) is one `bucket` names; null when the bucket
 * is one only Google can tell (crawled or discovered but not indexed, duplicates, other) or there is none. */
export function agreesWith(bucket: string | null, reasons: readonly string[]): boolean | null {
  if (bucket === null || !isGscBucket(bucket)) return null;
  const matching = matchingFindingReasons(bucket);
  if (matching.length === 0) return null;
  return reasons.some((r) => matching.includes(r));
}

/** SQL: the row `f` (findings) has one of `matching` among its reasons (reasons may be null on old rows:
 * then its reason alone). Never null. */
export function reasonsMatchSql(matching: string): string {
  return `coalesce(f.reasons && ${matching}, f.reason = ANY(${matching}))`;
}

/** SQL: the reasons a bucket names, per row of the current states `g` (null for the buckets only Google can
 * tell), as one CASE over the closed table of reasons.ts. */
export function matchingReasonsSql(bucket = 'g.bucket'): string {
  const cases = GSC_BUCKETS.map((b) => [b, matchingFindingReasons(b)] as const)
    .filter(([, reasons]) => reasons.length > 0)
    .map(([b, reasons]) => `WHEN '${b}' THEN ${textArray(reasons)}`);
  return `(CASE ${bucket} ${cases.join(' ')} END)`;
}

/**
 * A condition over `findings f` of the audit whose id is the SQL expression `audit`: its key's current
 * Search Console state is `gsc`, and with `match`, the bucket does (not) name one of the row's reasons. An
 * IN over the audit's current states (a hashed semi-join of the keys Search Console named, at most a few
 * hundred thousand, whatever the size of the audit); `unknown` is its anti-join. `match` needs a bucket:
 * "agrees" is only defined against one reason of Google's.
 */
export function gscConditionSql(audit: string, gsc: GscFilter | undefined, match?: GscMatch): string {
  // IS TRUE keeps the IN a hashed subplan (built once, probed per row) instead of a semi-join the planner
  // may run as a nested loop: it estimates the current states at one row, and findings have no key index.
  const keysWhere = (where: string) =>
    `(f.key IN (SELECT g.key FROM (${currentGscStatesSql(audit)}) g${where ? ` WHERE ${where}` : ''})) IS TRUE`;
  if (gsc === undefined || (match && !isGscBucket(gsc))) {
    throw new AppError('validation_failed', 'gscMatch needs gsc to be a Search Console reason bucket');
  }
  if (gsc === 'unknown') return `NOT ${keysWhere('')}`;
  if (gsc === 'indexed' || gsc === 'not_indexed') return keysWhere(`g.state = '${gsc}'`);
  const condition = keysWhere(`g.bucket = '${gsc}'`);
  if (!match) return condition;
  const matching = matchingFindingReasons(gsc);
  // A bucket only Google can tell neither agrees nor disagrees with a reason of ours (agreesWith's null).
  if (matching.length === 0) return 'false';
  const agrees = reasonsMatchSql(textArray(matching));
  return `${condition} AND ${match === 'agrees' ? agrees : `NOT ${agrees}`}`;
}
