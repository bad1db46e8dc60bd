// Which rows a decision changes, defined once for the decision itself (mutations.ts, as SQL) and its
// preview (data.ts, from counts per decision): a decision by filter changes only pending rows unless it
// overrides; a decision by ids changes the rows given whatever they hold. Rows that already have the
// decision never change.
import { DECISIONS, type Decision, type DecisionPreviewDto } from './schema';

/** The rows among those selected that the decision changes, over `f`. `decision` is an SQL parameter. */
export function changesSql(decision: string, onlyPending: boolean): string {
  return `f.decision <> ${decision}${onlyPending ? ` AND f.decision = 'pending'` : ''}`;
}

/** What a decision would do to rows that hold `byDecision` now. */
export function previewOf(
  byDecision: Partial<Record<Decision, number>>,
  decision: Decision,
  onlyPending: boolean,
): DecisionPreviewDto {
  const counts = Object.fromEntries(DECISIONS.map((d) => [d, byDecision[d] ?? 0])) as Record<
    Decision,
    number
  >;
  const preview: DecisionPreviewDto = { willChange: 0, willSkip: 0, alreadySet: 0, byDecision: counts };
  for (const current of DECISIONS) {
    if (current === decision) preview.alreadySet += counts[current];
    else if (!onlyPending || current === 'pending') preview.willChange += counts[current];
    else preview.willSkip += counts[current];
  }
  return preview;
}
