// A run's state, the same way for every run kind: its badge and when (in a list of runs), then what it is
// doing with its counts and a bar while it is active. The words and the bar's value: run-status-words.ts.
import type { ReactNode } from 'react';
import { ProgressBar } from './progress-bar';
import styles from './run-status.module.css';
import { type RunCounts, runBarValue, runProgressWords, WAITING_WORDS } from './run-status-words';

/** The badge and when a run started (and whatever else names it), on one wrapping line. */
export function RunStatusHead({ children }: { children: ReactNode }) {
  return <div className={styles.head}>{children}</div>;
}

export function RunStatus({
  status,
  phase,
  progress,
  words,
  barLabel,
  unknownTotal = 'pulse',
  layout = 'line',
  testId,
}: {
  /** The run's state: a queued run is waiting for a worker. */
  status: string;
  /** What it is doing now, in words ("Checking URLs"). */
  phase: string;
  progress: RunCounts;
  /** The progress line in a run kind's own words, in place of "<phase>: N of M". */
  words?: string;
  /** The bar's accessible name ("Spot-check progress"). */
  barLabel: string;
  /** Before the total is known the bar pulses (busy) or stays empty. */
  unknownTotal?: 'pulse' | 'empty';
  /** `line`: the words above the bar. `panel`: the phase in bold beside its counts, the bar below, laid out
   * by the card around them. */
  layout?: 'line' | 'panel';
  /** The test id of the progress words. */
  testId?: string;
}) {
  const bar = <ProgressBar value={runBarValue(status, progress, unknownTotal)} label={barLabel} />;
  if (layout === 'panel') {
    const isQueued = status === 'queued';
    return (
      <>
        <div className={styles.row}>
          <strong>{isQueued ? WAITING_WORDS : phase}</strong>
          <span className="muted" data-testid={testId}>
            {isQueued ? '' : (words ?? '')}
          </span>
        </div>
        {bar}
      </>
    );
  }
  return (
    <div className={styles.line}>
      <span className="small" data-testid={testId}>
        {status === 'queued' ? WAITING_WORDS : (words ?? runProgressWords(status, phase, progress))}
      </span>
      {bar}
    </div>
  );
}
