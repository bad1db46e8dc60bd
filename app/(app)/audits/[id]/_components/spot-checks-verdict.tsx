// A verdict's name as the panel shows it, and its badge.
import type { Verdict } from '@/lib/spot-check/types';

const LABELS: Record<Verdict, string> = {
  confirmed: 'Confirmed',
  contradicted: 'Contradicted',
  changed: 'Changed',
  orphan_live: 'Live orphan',
  dead: 'Dead',
  recovered: 'Recovered',
  error: 'Not checked',
};

export function verdictLabel(verdict: Verdict): string {
  return LABELS[verdict];
}

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <span className={`spot-verdict-badge spot-verdict--${verdict}`}>{verdictLabel(verdict)}</span>;
}
