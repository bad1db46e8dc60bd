// A verdict's name as the product shows it: in the app, the shared report and its PDF alike.
import type { Verdict } from './types';

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
