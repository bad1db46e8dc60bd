// Which rows a decision changes, defined once for the decision itself (mutations.ts, as SQL) and its
// preview (data.ts, from counts per decision): a decision by filter changes only pending rows unless it
// overrides; a decision by ids changes the rows given whatever they hold. Rows that already have the
// decision never change. Also the approval rules for unreached rows: the audit setting
// requireSpotCheckForUnreached and the site setting requireConfirmedUnreached.

import { CONFIRMING, type VerdictFilter, verdictConditionSql } from '@/lib/findings/evidence/live';
import {
  DECISIONS,
  type Decision,
  type DecisionPreviewDto,
  type FindingDto,
  type TFindingFilter,
} from '@/lib/findings/schema';
import { UNREACHED_CONFIRMED } from './approval/schema';

/** The rows among those selected that the decision changes, over `f`. `decision` is an SQL parameter. */
export function changesSql(decision: string, onlyPending: boolean): string {
  return `f.decision <> ${decision}${onlyPending ? ` AND f.decision = 'pending'` : ''}`;
}

/** Held rows are not safe to judge yet (a crawl mismatch, a canonical loop or pattern, a server error):
 * no bulk approval includes them — not by filter, not "approve confirmed", not a selection of several
 * rows (mutations.ts refuses those whole). Each one is approved on its own, after someone looked at it.
 * The refusal's message when a bulk approval would include `n` held rows. */
export function heldBulkApprovalMessage(n: number): string {
  const rows = n === 1 ? '1 held row' : `${n.toLocaleString('en-US')} held rows`;
  return (
    `${n === 0 ? 'This approval is over the held list.' : `This approval would include ${rows}.`} Held rows are not safe to judge yet, so they are never approved ` +
    'in bulk: open each one, check it, and approve it on its own. Nothing was approved.'
  );
}

/** What a decision would do to rows that hold `byDecision` now. */
export function previewOf(
  byDecision: Partial<Record<Decision, number>>,
  decision: Decision,
  onlyPending: boolean,
  isHeld = false,
): DecisionPreviewDto {
  const counts = Object.fromEntries(DECISIONS.map((d) => [d, byDecision[d] ?? 0])) as Record<
    Decision,
    number
  >;
  const preview: DecisionPreviewDto = { willChange: 0, willSkip: 0, alreadySet: 0, byDecision: counts };
  for (const current of DECISIONS) {
    if (current === decision) preview.alreadySet += counts[current];
    // A filter's approval never changes held rows (isHeldBulkApproval).
    else if (isHeld && decision === 'approved') preview.willSkip += counts[current];
    else if (!onlyPending || current === 'pending') preview.willChange += counts[current];
    else preview.willSkip += counts[current];
  }
  return preview;
}

/** The rows requireSpotCheckForUnreached guards: prune rows whose reason is that the crawl never reached
 * them (nothing but the live site can back those up). */
const GUARDED = `f.list = 'prune' AND f.reason = 'unreached_by_crawl'`;

/** Over `f` of audit `$1`: a guarded row without a confirming verdict (confirmed or dead) from its latest
 * finished spot-check. */
export const UNCONFIRMED_SQL = `${GUARDED} AND NOT (${verdictConditionSql('$1', CONFIRMING)})`;

/** Over `f`: a guarded row the previous complete audit of its site did not have unreached too (it lacks the
 * `unreached_confirmed` signal), which the site setting requireConfirmedUnreached keeps from approval. */
export const NOT_CONFIRMED_ACROSS_CRAWLS_SQL = `${GUARDED} AND NOT (f.signals @> ARRAY['${UNREACHED_CONFIRMED}'])`;

const SITE_RULE =
  "This site needs an unreached row confirmed across two crawls (unreached in the site's previous complete audit too) before it is approved";

/** Why approving this row is refused while the audit requires a confirming spot-check, or its site requires
 * the row confirmed across two crawls; null when neither refuses it. */
export function approvalBlockedReason(
  finding: Pick<FindingDto, 'list' | 'reason' | 'spotCheck' | 'signals'>,
  requireSpotCheck: boolean,
  requireConfirmedUnreached = false,
): string | null {
  if (finding.list !== 'prune' || finding.reason !== 'unreached_by_crawl') return null;
  if (requireConfirmedUnreached && !finding.signals.includes(UNREACHED_CONFIRMED)) {
    return `${SITE_RULE}; this one is not (it was reached, or absent, last time).`;
  }
  if (!requireSpotCheck) return null;
  const verdict = finding.spotCheck?.verdict;
  if (verdict && CONFIRMING.includes(verdict)) return null;
  return verdict
    ? `This audit needs a confirming spot-check (confirmed or dead) before an unreached row is approved; the latest check says ${verdict}.`
    : 'This audit needs a confirming spot-check (confirmed or dead) before an unreached row is approved; spot-check this row first.';
}

/** The refusal's message when `n` rows of an approval lack a confirming check. */
export function spotCheckRequiredMessage(n: number): string {
  const rows = n === 1 ? '1 unreached_by_crawl row has' : `${n} unreached_by_crawl rows have`;
  return (
    `${rows} no confirming spot-check (confirmed or dead in the latest finished run), which this audit ` +
    'requires before approval. Nothing was approved: spot-check those rows first, or approve only the ' +
    'confirmed ones (filter verdict=confirming).'
  );
}

/** The refusal's message when `n` rows of an approval are not confirmed across two crawls. */
export function confirmedUnreachedRequiredMessage(n: number): string {
  const rows = n === 1 ? '1 unreached_by_crawl row is' : `${n} unreached_by_crawl rows are`;
  return (
    `${rows} not confirmed across two crawls (unreached in the site's previous complete audit too), which ` +
    "this site's setting requires before approval. Nothing was approved: approve only the confirmed ones " +
    `(filter signal=${UNREACHED_CONFIRMED}), or wait for the next complete run.`
  );
}

/**
 * "Approve all confirmed" for the rows of `filter`: the same filter narrowed to the rows whose latest check
 * backs an approval, and the words saying which those are. On the prune and held lists `dead` counts (the
 * page is gone: pruning it is right); add rows are never `dead`, so there it is `confirmed` alone. Null when
 * the filter already asks for another verdict (no row of it is confirmed), and on the held list.
 */
export function approveConfirmedOf(filter: TFindingFilter): { filter: TFindingFilter; rows: string } | null {
  if (filter.list === 'held') return null; // held rows are never approved in bulk
  const own: VerdictFilter = filter.list === 'add' ? 'confirmed' : 'confirming';
  const verdict = filter.verdict ?? own;
  if (verdict !== 'confirming' && !CONFIRMING.some((v) => v === verdict)) return null;
  const rows = verdict === 'confirming' ? 'confirmed or dead' : verdict;
  return { filter: { ...filter, verdict }, rows };
}
