'use client';
// Spot-checking from the review: the rows selected (by id, or every row matching the filter) or every row of
// the current filter, fetched live in one run (POST …/spot-checks with `ids` or `filter`), not only a random
// sample from the Spot-checks tab. One run at a time, as there; the verdicts reach the Live column when the
// run ends, and the Spot-checks tab follows it.
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { sectionSearch } from '@/lib/audits/section-url';
import { formatCount } from '@/lib/core/format';
import type { TFindingFilter } from '@/lib/findings/schema';
import { useSpotCheckRuns, useStartSpotCheck } from '@/lib/spot-check/hooks';
import { runName, startBlockedBy } from '@/lib/spot-check/labels';
import type { TSpotCheckRequest } from '@/lib/spot-check/schema';
import styles from './review-spot-check.module.css';

/** What is selected in the review: ids, every row matching the filter, or nothing. */
export type ReviewSelection = { ids: number[] } | { all: true } | null;

export function ReviewSpotCheck({
  auditId,
  selection,
  selectedCount,
  filter,
  total,
}: {
  auditId: string;
  selection: ReviewSelection;
  selectedCount: number;
  filter: TFindingFilter;
  /** Rows matching the filter (0 while unknown). */
  total: number;
}) {
  const runs = useSpotCheckRuns(auditId);
  const start = useStartSpotCheck(auditId);
  const searchParams = useSearchParams();
  const [started, setStarted] = useState<{ runId: string; rows: number } | null>(null);
  const list = runs.data ?? [];
  const blockedBy = startBlockedBy(list);
  const startedRun = started ? list.find((run) => run.id === started.runId) : undefined;
  const startedName = startedRun ? runName(startedRun) : 'The spot-check';
  const isOff = start.isPending || blockedBy !== null;

  const check = (request: TSpotCheckRequest, rows: number) => {
    if (isOff) return;
    setStarted(null);
    start.mutate(request, { onSuccess: ({ runId }) => setStarted({ runId, rows }) });
  };
  const selectedRequest: TSpotCheckRequest | null =
    selection === null ? null : 'ids' in selection ? { ids: selection.ids } : { filter };
  const tabHref = `?${sectionSearch(searchParams.toString(), 'spot-checks', 'review')}`;

  return (
    <div className={styles.group} data-testid="review-spot-check">
      <span className={styles.label}>Live spot-check</span>
      <button
        type="button"
        className="button button--small"
        data-testid="spot-check-selected"
        aria-disabled={isOff || selectedRequest === null}
        onClick={() => {
          if (selectedRequest) check(selectedRequest, selectedCount);
        }}
      >
        Spot-check selected{selectedCount > 0 ? ` (${formatCount(selectedCount)})` : ''}
      </button>
      <button
        type="button"
        className="button button--small"
        data-testid="spot-check-filter"
        aria-disabled={isOff || total === 0}
        onClick={() => {
          if (total > 0) check({ filter }, total);
        }}
      >
        Spot-check this filter ({formatCount(total)})
      </button>
      <p className={`small ${styles.note}`} role="status" aria-live="polite" data-testid="review-spot-status">
        {blockedBy && !start.isPending && !(startedRun && blockedBy === startedName) ? (
          <span className="muted">{blockedBy} is still running: one spot-check at a time. </span>
        ) : null}
        {start.isPending ? 'Starting the spot-check…' : null}
        {started !== null && !start.isPending ? (
          <>
            {startedName} started on {formatCount(started.rows)} {started.rows === 1 ? 'row' : 'rows'}: the
            Live column shows the verdicts when it ends.{' '}
            <Link href={tabHref}>Follow it on the Spot-checks tab</Link>
          </>
        ) : null}
      </p>
      {start.isError ? (
        <p className={`field__error ${styles.note}`} role="alert" data-testid="review-spot-error">
          The spot-check was not started: {start.error.message}
        </p>
      ) : null}
    </div>
  );
}
