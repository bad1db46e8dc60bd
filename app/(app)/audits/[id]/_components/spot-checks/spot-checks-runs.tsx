'use client';
// The runs of an audit's spot-checks, newest first: status, progress while running, who started it and when,
// Cancel while it runs, Run again / Re-check its errors once it has ended (reviewers and admins). Choosing a
// run shows its results below.
import { ConfirmButton } from '@/components/ui/confirm-button';
import pagerStyles from '@/components/ui/cursor-pager.module.css';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { RunStatus, RunStatusHead } from '@/components/ui/run-status';
import { isActiveStatus } from '@/lib/audits/labels';
import { formatCount } from '@/lib/core/format';
import { describeBudget, describeRequest, runName } from '@/lib/spot-check/labels';
import type { SpotCheckRunDto } from '@/lib/spot-check/schema';
import { StatusBadge } from '../../../_components/status-badge';
import styles from './spot-checks.module.css';
import spotRuns from './spot-runs.module.css';

/** "Run again" and, when the run has rows it could not check, "Re-check N errors". */
function RetryButtons({
  run,
  isBusy,
  onRetry,
}: {
  run: SpotCheckRunDto;
  isBusy: boolean;
  onRetry: (runId: string, onlyErrors: boolean) => void;
}) {
  const errors = run.summary?.byVerdict.error ?? 0;
  return (
    <div className={pagerStyles['spot-pager']}>
      <button
        type="button"
        className="button button--small"
        disabled={isBusy}
        data-testid="retry-spot-check"
        onClick={() => onRetry(run.id, false)}
      >
        Run again
      </button>
      {errors > 0 ? (
        <button
          type="button"
          className="button button--small"
          disabled={isBusy}
          data-testid="retry-spot-check-errors"
          onClick={() => onRetry(run.id, true)}
        >
          Re-check {formatCount(errors)} {errors === 1 ? 'error' : 'errors'}
        </button>
      ) : null}
    </div>
  );
}

/** Who started a run, and who cancelled it: one name when it is the same person, not "by X … Cancelled by X". */
export function RunPeople({
  run,
}: {
  run: { status: string; createdBy: string; cancelledBy: string | null };
}) {
  const isCancelled = run.status === 'cancelled' && run.cancelledBy !== null;
  return (
    <span className="muted small" data-testid="run-people">
      {isCancelled && run.cancelledBy === run.createdBy ? 'started and cancelled by ' : 'by '}
      <strong>{run.createdBy}</strong>
      {isCancelled && run.cancelledBy !== run.createdBy ? (
        <>
          {' '}
          · cancelled by <strong>{run.cancelledBy}</strong>
        </>
      ) : null}
    </span>
  );
}

function sourceName(source: SpotCheckRunDto | undefined): string {
  return source ? runName(source) : 'an older run';
}

export function SpotChecksRuns({
  runs,
  selectedId,
  onSelect,
  canManage,
  cancellingId,
  onCancel,
  retryingId,
  onRetry,
}: {
  runs: SpotCheckRunDto[];
  selectedId: string | null;
  onSelect: (runId: string) => void;
  /** Reviewers and admins: Cancel, Run again and Re-check errors. */
  canManage: boolean;
  cancellingId: string | null;
  onCancel: (runId: string) => void;
  /** The run a retry is being started from, while it is. */
  retryingId: string | null;
  onRetry: (runId: string, onlyErrors: boolean) => void;
}) {
  const formatTime = useDateTimeFormat();
  const byId = new Map(runs.map((run) => [run.id, run]));
  // One run at a time: a second would fetch the same site twice over (the form says so too).
  const hasActive = runs.some((run) => isActiveStatus(run.status));
  return (
    <ol className={spotRuns['spot-runs']} aria-label="Spot-check runs">
      {runs.map((run) => {
        const isActive = isActiveStatus(run.status);
        const isSelected = run.id === selectedId;
        return (
          <li key={run.id} className={spotRuns['spot-run']} data-selected={isSelected} data-testid="spot-run">
            <RunStatusHead>
              <button
                type="button"
                className="button button--link spot-run__select"
                aria-pressed={isSelected}
                onClick={() => onSelect(run.id)}
              >
                <span className={styles['spot-run__name']}>{runName(run)}</span> · {formatTime(run.createdAt)}
              </button>
              <StatusBadge status={run.status} testId="spot-run-status" />
              <RunPeople run={run} />
            </RunStatusHead>
            <p className={`small muted ${spotRuns['spot-run__request']}`}>
              {describeRequest(run)}
              {run.retryOf ? (
                <span data-testid="spot-run-retry-of">
                  {' '}
                  · run again from {sourceName(byId.get(run.retryOf))}
                </span>
              ) : null}
            </p>
            {describeBudget(run) ? (
              <p className={`small muted ${spotRuns['spot-run__request']}`} data-testid="spot-run-budget">
                {describeBudget(run)}
              </p>
            ) : null}
            {isActive ? (
              <RunStatus
                status={run.status}
                phase={run.phaseLabel}
                progress={run.progress}
                barLabel="Spot-check progress"
                testId="spot-run-progress"
              />
            ) : null}
            {run.errorMessage ? <p className="small field__error">{run.errorMessage}</p> : null}
            {isActive && canManage ? (
              <div>
                <ConfirmButton
                  title="Cancel this spot-check?"
                  message="It stops where it is now and ends as cancelled; nothing it checked so far is kept. To check again, start a new spot-check."
                  confirmLabel="Cancel spot-check"
                  dismissLabel="Keep it running"
                  busy={cancellingId === run.id}
                  disabled={cancellingId === run.id}
                  testId="cancel-spot-check"
                  onConfirm={() => onCancel(run.id)}
                >
                  {cancellingId === run.id ? 'Cancelling…' : 'Cancel'}
                </ConfirmButton>
              </div>
            ) : null}
            {!isActive && canManage ? (
              <RetryButtons run={run} isBusy={retryingId !== null || hasActive} onRetry={onRetry} />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
