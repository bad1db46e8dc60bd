'use client';
// The runs of an audit's spot-checks, newest first: status, progress while running, who started it and when,
// Cancel while it runs, Run again / Re-check its errors once it has ended (reviewers and admins). Choosing a
// run shows its results below.
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatCount, progressPercent } from '@/lib/audits/format';
import { isActiveStatus } from '@/lib/audits/labels';
import { describeRequest, runName } from '@/lib/spot-check/labels';
import type { SpotCheckRunDto } from '@/lib/spot-check/schema';
import { StatusBadge } from '../../_components/status-badge';

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
    <div className="spot-pager">
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
  return (
    <ol className="spot-runs" aria-label="Spot-check runs">
      {runs.map((run) => {
        const isActive = isActiveStatus(run.status);
        const percent = progressPercent(run.progress);
        const isSelected = run.id === selectedId;
        return (
          <li key={run.id} className="spot-run" data-selected={isSelected} data-testid="spot-run">
            <div className="spot-run__head">
              <button
                type="button"
                className="button button--link spot-run__select"
                aria-pressed={isSelected}
                onClick={() => onSelect(run.id)}
              >
                <span className="spot-run__name">{runName(run)}</span> · {formatTime(run.createdAt)}
              </button>
              <StatusBadge status={run.status} testId="spot-run-status" />
              <span className="muted small">
                by <strong>{run.createdBy}</strong>
              </span>
            </div>
            <p className="small muted spot-run__request">
              {describeRequest(run)}
              {run.retryOf ? (
                <span data-testid="spot-run-retry-of">
                  {' '}
                  · run again from {sourceName(byId.get(run.retryOf))}
                </span>
              ) : null}
            </p>
            {isActive ? (
              <div className="spot-run__progress">
                <span className="small" data-testid="spot-run-progress">
                  {run.status === 'queued'
                    ? 'Waiting for a worker…'
                    : run.progress.total > 0
                      ? `${run.phaseLabel}: ${formatCount(run.progress.done)} of ${formatCount(run.progress.total)}`
                      : `${run.phaseLabel}…`}
                </span>
                <ProgressBar
                  value={run.status === 'queued' ? 0 : percent}
                  label="Spot-check progress"
                  size="small"
                />
              </div>
            ) : null}
            {run.status === 'cancelled' && run.cancelledBy ? (
              <p className="small muted">Cancelled by {run.cancelledBy}</p>
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
              <RetryButtons run={run} isBusy={retryingId !== null} onRetry={onRetry} />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
