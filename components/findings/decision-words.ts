// Sentences about decisions (pure): what a decision by filter will do, from its preview, and what a
// decision did, from the server's answer. The confirmation dialog and the bulk bar's status line say these.
import { formatCount } from '@/lib/core/format';
import {
  DECISIONS,
  type Decision,
  type DecisionPreviewDto,
  type DecisionsRecordedDto,
} from '@/lib/findings/schema';

/** What a row becomes ("approved", "reset to pending") and what it is ("pending"). */
const BECOMES: Record<Decision, string> = {
  approved: 'approved',
  rejected: 'rejected',
  pending: 'reset to pending',
};
const IS: Record<Decision, string> = { approved: 'approved', rejected: 'rejected', pending: 'pending' };

function rows(n: number, adjective?: string): string {
  return `${formatCount(n)} ${adjective ? `${adjective} ` : ''}${n === 1 ? 'row' : 'rows'}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "980 pending rows will be approved; 1 rejected row stays rejected." */
export function previewSentence(preview: DecisionPreviewDto, decision: Decision, override: boolean): string {
  const counts = preview.byDecision;
  const parts: string[] = [];
  if (preview.willChange > 0) {
    const from = DECISIONS.filter((d) => d !== decision && (override || d === 'pending') && counts[d] > 0);
    const only = from.length === 1 ? from[0] : undefined;
    parts.push(
      only
        ? `${rows(preview.willChange, IS[only])} will be ${BECOMES[decision]}`
        : `${rows(preview.willChange)} will be ${BECOMES[decision]} (${from
            .map((d) => `${formatCount(counts[d])} ${IS[d]}`)
            .join(', ')})`,
    );
  } else {
    parts.push('Nothing will change');
  }
  if (preview.willSkip > 0) {
    const skipped = DECISIONS.filter((d) => d !== decision && d !== 'pending' && counts[d] > 0);
    for (const d of skipped)
      parts.push(`${rows(counts[d], IS[d])} ${counts[d] === 1 ? 'stays' : 'stay'} ${IS[d]}`);
  }
  if (preview.alreadySet > 0) {
    parts.push(
      `${rows(preview.alreadySet)} ${preview.alreadySet === 1 ? 'is' : 'are'} already ${IS[decision]}`,
    );
  }
  return `${parts.join('; ')}.`;
}

/** What the server said a decision did: "980 rows approved; 1 decided row left as it was", "Already approved".
 * `noteByIds`: a note went with picked rows, which the server records on rows already decided too. */
export function resultSentence(result: DecisionsRecordedDto, decision: Decision, noteByIds = false): string {
  const sentence = decisionSentence(result, decision);
  return noteByIds && result.unchanged > 0 && result.updated === 0 ? `${sentence}; note saved` : sentence;
}

function decisionSentence(result: DecisionsRecordedDto, decision: Decision): string {
  const { updated, skipped, unchanged } = result;
  const left =
    skipped > 0 ? `${rows(skipped, 'decided')} left as ${skipped === 1 ? 'it was' : 'they were'}` : '';
  const already = unchanged > 0 ? `${formatCount(unchanged)} already ${IS[decision]}` : '';
  if (updated > 0) return [`${rows(updated)} ${BECOMES[decision]}`, left, already].filter(Boolean).join('; ');
  if (skipped > 0) return `Nothing changed: ${[left, already].filter(Boolean).join('; ')}`;
  if (unchanged === 1) return `Already ${IS[decision]}`;
  if (unchanged > 1) return `All ${rows(unchanged)} were already ${IS[decision]}`;
  return 'No rows matched: nothing changed';
}

/** "Approve", "Reject", "Reset" — the verb on the buttons. */
export function decisionVerb(decision: Decision): string {
  return capitalise({ approved: 'approve', rejected: 'reject', pending: 'reset' }[decision]);
}
