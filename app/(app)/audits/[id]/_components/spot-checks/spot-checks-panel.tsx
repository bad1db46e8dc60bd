'use client';
// The audit page's "Live spot-check" panel: reviewers start, cancel and re-run runs; everyone sees
// the runs, the chosen run's summary, a comparison with another run and its checked rows. Runs are polled
// while one is active (lib/spot-check/hooks.ts).
import { useState } from 'react';
import { useCan } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { CursorPager, useCursorStack } from '@/components/ui/cursor-pager';
import { isActiveStatus } from '@/lib/audits/labels';
import { countText } from '@/lib/core/format';
import {
  useCancelSpotCheck,
  useRetrySpotCheck,
  useSpotCheckRun,
  useSpotCheckRuns,
  useStartSpotCheck,
} from '@/lib/spot-check/hooks';
import { startBlockedBy } from '@/lib/spot-check/labels';
import type { SpotCheckRunDto } from '@/lib/spot-check/schema';
import { SpotChecksCompare } from './spot-checks-compare';
import { SpotChecksForm } from './spot-checks-form';
import { SpotChecksItems } from './spot-checks-items';
import { SpotChecksRuns } from './spot-checks-runs';
import { SpotChecksSummary } from './spot-checks-summary';

function RunResults({ auditId, runId, runs }: { auditId: string; runId: string; runs: SpotCheckRunDto[] }) {
  const pages = useCursorStack();
  const run = useSpotCheckRun(auditId, runId, pages.cursor);
  if (run.isError) return <Alert title="Could not load this spot-check">{run.error.message}</Alert>;
  const data = run.data;
  if (!data) return <p className="muted">Loading the spot-check…</p>;
  if (isActiveStatus(data.status))
    return <p className="muted">The results appear here when the run has finished.</p>;
  if (!data.summary)
    return (
      <p className="muted">
        This run ended without results{data.errorMessage ? `: ${data.errorMessage}` : '.'}
      </p>
    );
  return (
    <div className="stack" data-testid="spot-results">
      <SpotChecksSummary summary={data.summary} />
      <SpotChecksCompare auditId={auditId} run={data} runs={runs} />
      <h3>Checked rows</h3>
      <SpotChecksItems items={data.items} />
      <CursorPager stack={pages} nextCursor={data.nextCursor} busy={run.isPlaceholderData}>
        Page {pages.page} · {countText(data.items.length, 'row')}
      </CursorPager>
    </div>
  );
}

export function SpotChecksPanel({ auditId }: { auditId: string }) {
  const canStart = useCan('reviewer');
  const runs = useSpotCheckRuns(auditId);
  const start = useStartSpotCheck(auditId);
  const cancel = useCancelSpotCheck(auditId);
  const retry = useRetrySpotCheck(auditId);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const list = runs.data ?? [];
  // Until a run is chosen the newest is shown, so a run just started is the one followed.
  const selectedId = chosenId && list.some((r) => r.id === chosenId) ? chosenId : (list[0]?.id ?? null);

  return (
    <section
      className="card card__body stack spot-panel"
      aria-labelledby="spot-panel-heading"
      data-testid="spot-panel"
    >
      <div>
        <h2 id="spot-panel-heading">Live spot-check</h2>
        <p className="muted small">
          Fetch a sample of the findings from the live site now and see whether each reason still holds before
          you prune.
        </p>
      </div>
      {canStart ? (
        <SpotChecksForm
          isStarting={start.isPending}
          blockedBy={startBlockedBy(list)}
          error={start.error}
          onStart={(request) => start.mutate(request, { onSuccess: ({ runId }) => setChosenId(runId) })}
        />
      ) : null}
      {cancel.isError ? (
        <Alert title="The spot-check could not be cancelled">{cancel.error.message}</Alert>
      ) : null}
      {retry.isError ? (
        <Alert title="The spot-check could not be started again">{retry.error.message}</Alert>
      ) : null}
      {runs.isError ? <Alert title="Could not load the spot-checks">{runs.error.message}</Alert> : null}
      {runs.data && list.length === 0 ? <p className="muted">No spot-checks yet.</p> : null}
      {list.length > 0 ? (
        <SpotChecksRuns
          runs={list}
          selectedId={selectedId}
          onSelect={setChosenId}
          canManage={canStart}
          cancellingId={cancel.isPending ? (cancel.variables ?? null) : null}
          onCancel={(runId) => cancel.mutate(runId)}
          retryingId={retry.isPending ? (retry.variables?.runId ?? null) : null}
          onRetry={(runId, onlyErrors) =>
            retry.mutate(
              { runId, ...(onlyErrors ? { only: 'errors' as const } : {}) },
              { onSuccess: (started) => setChosenId(started.runId) },
            )
          }
        />
      ) : null}
      {selectedId ? <RunResults key={selectedId} auditId={auditId} runId={selectedId} runs={list} /> : null}
    </section>
  );
}
