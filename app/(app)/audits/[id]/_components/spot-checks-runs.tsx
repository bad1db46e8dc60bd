'use client';
// The runs of an audit's spot-checks, newest first: status, progress while running, who started it and when,
// Cancel while it runs (reviewers and admins, after a confirmation). Choosing a run shows its results below.
import { ConfirmButton } from '@/components/ui/confirm-button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatCount, formatDateTime, progressPercent } from '@/lib/audits/format';
import { isActiveStatus } from '@/lib/audits/labels';
import type { SpotCheckRunDto } from '@/lib/spot-check/schema';
import { StatusBadge } from '../../_components/status-badge';

function describeRequest(run: SpotCheckRunDto): string {
  const { request } = run;
  const robots = request.ignoreRobots ? ', robots.txt ignored' : '';
  if ('sample' in request)
    return `Sample of ${formatCount(request.sample)}, seed ${request.seed}${request.includeAdd ? ', add list included' : ''}${robots}`;
  if ('ids' in request) return `${formatCount(request.ids.length)} chosen rows${robots}`;
  return `Every row of a filter${robots}`;
}

export function SpotChecksRuns({
  runs,
  selectedId,
  onSelect,
  canCancel,
  cancellingId,
  onCancel,
}: {
  runs: SpotCheckRunDto[];
  selectedId: string | null;
  onSelect: (runId: string) => void;
  canCancel: boolean;
  cancellingId: string | null;
  onCancel: (runId: string) => void;
}) {
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
                {formatDateTime(run.createdAt)}
              </button>
              <StatusBadge status={run.status} testId="spot-run-status" />
              <span className="muted small">
                by <strong>{run.createdBy}</strong>
              </span>
            </div>
            <p className="small muted spot-run__request">{describeRequest(run)}</p>
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
            {isActive && canCancel ? (
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
          </li>
        );
      })}
    </ol>
  );
}
