// The title of the confirmation of a decision on every row matching a filter. It counts from the same
// preview as the dialog's sentence and its button, so the three agree: "Approve all 130 matching rows?"
// once said "all 130" over a button approving 129 (one of them was rejected and stays so).
import { formatCount } from '@/lib/core/format';
import type { DecisionPreviewDto } from '@/lib/findings/schema';

/** "Approve all 130 matching rows?" when the decision changes every matching row, "Approve 129 of the 130
 * matching rows?" when some keep theirs (decided rows, without the override; rows that already have it),
 * "Approve the 130 matching rows?" when it changes none (or the one row) or while the preview is counting (then `counted`,
 * the review's own count of the filter, is all there is). `rows` says what the rows are ("matching",
 * "confirmed or dead"). */
export function bulkDecisionTitle(
  verb: string,
  rows: string,
  preview: DecisionPreviewDto | undefined,
  counted: number,
): string {
  const matching = preview ? Object.values(preview.byDecision).reduce((sum, n) => sum + n, 0) : counted;
  const noun = `${rows} ${matching === 1 ? 'row' : 'rows'}`;
  if (!preview || preview.willChange === 0 || (preview.willChange === matching && matching === 1))
    return `${verb} the ${formatCount(matching)} ${noun}?`;
  if (preview.willChange === matching) return `${verb} all ${formatCount(matching)} ${noun}?`;
  return `${verb} ${formatCount(preview.willChange)} of the ${formatCount(matching)} ${noun}?`;
}
