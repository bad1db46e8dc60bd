// The words and the bar of a run's progress, one rule for every run kind (audits, spot-checks, Search
// Console inspections and imports, site runs): pure, so the rule is tested without a browser.
import { formatCount, progressPercent } from '@/lib/core/format';

export type RunCounts = { done: number; total: number };

/** A queued run has no worker yet: that is what it is doing, whatever its phase says. */
export const WAITING_WORDS = 'Waiting for a worker…';

/** "Checking URLs: 12 of 40", or "Checking URLs…" before the phase knows its total. */
export function runProgressWords(status: string, phase: string, progress: RunCounts): string {
  if (status === 'queued') return WAITING_WORDS;
  return progress.total > 0
    ? `${phase}: ${formatCount(progress.done)} of ${formatCount(progress.total)}`
    : `${phase}…`;
}

/**
 * The bar's value: 0 while queued, else the share done. Without a total the bar either pulses (`null`: busy,
 * amount unknown) or stays empty (0), as the run kind chooses.
 */
export function runBarValue(status: string, progress: RunCounts, unknown: 'pulse' | 'empty'): number | null {
  if (status === 'queued') return 0;
  const percent = progressPercent(progress);
  return percent ?? (unknown === 'pulse' ? null : 0);
}
