'use client';
// The bulk bar: what is selected (rows by id, or every row matching the filter), an optional note, the
// three decisions, who is deciding (the signed-in user), a live region that says what the server did
// (rows changed, decided rows left alone, rows that already had the decision) and why a decision failed;
// "approve all confirmed" when pending rows of the list have a confirming live verdict; and the spot-check
// of the selection or the filter (review-spot-check.tsx).
import type { ReactNode } from 'react';
import { useCan, useSessionUser } from '@/app/session-context';
import { formatCount } from '@/lib/core/format';
import type { Decision } from '@/lib/findings/schema';
import styles from './review.module.css';

export type SelectionSummary = { mode: 'ids'; count: number } | { mode: 'all'; count: number };

/** Pending rows of the current list whose latest finished spot-check backs approving them. */
export interface ConfirmedRows {
  count: number;
  /** Which verdicts: "confirmed or dead", "confirmed", "dead". */
  rows: string;
  onApprove: () => void;
}

function ReviewingAs() {
  const user = useSessionUser();
  return user ? <span className={`small ${styles.reviewer}`}>Deciding as {user.name}</span> : null;
}

export function FindingsActions({
  selection,
  total,
  note,
  isBusy,
  announcement,
  error,
  onNoteChange,
  onSelectAllMatching,
  onClearSelection,
  onDecide,
  confirmed,
  spotCheck,
}: {
  selection: SelectionSummary;
  total: number;
  note: string;
  isBusy: boolean;
  /** The id changes with every message, so a repeated text is announced again. */
  announcement: { text: string; id: number };
  error: string | null;
  onNoteChange: (note: string) => void;
  onSelectAllMatching: () => void;
  onClearSelection: () => void;
  onDecide: (decision: Decision) => void;
  /** Null when no pending row of the list is confirmed (the button is not shown). */
  confirmed: ConfirmedRows | null;
  /** Spot-checking the selection or the filter, beside the decisions. */
  spotCheck?: ReactNode;
}) {
  const canDecide = useCan('reviewer');
  const errorLine = error ? (
    <p className="field__error" role="alert" data-testid="decision-error">
      {error}
    </p>
  ) : null;
  if (!canDecide) {
    return (
      <>
        <p className="small muted" data-testid="read-only-note">
          You have read-only access: reviewers and admins approve or reject findings.
        </p>
        {errorLine}
      </>
    );
  }
  const hasSelection = selection.count > 0;
  const isAll = selection.mode === 'all';
  // aria-disabled, not disabled: a button that disables itself (busy, or the selection it cleared) would
  // drop keyboard focus to the page.
  const isOff = !hasSelection || isBusy;
  const decide = (decision: Decision) => {
    if (!isOff) onDecide(decision);
  };
  return (
    <div className={styles['bulk-bar']} data-testid="bulk-bar">
      <div className={styles['bulk-bar__selection']}>
        <span data-testid="selection-count" data-value={selection.count} data-mode={selection.mode}>
          {isAll
            ? `All ${formatCount(selection.count)} matching rows selected`
            : hasSelection
              ? `${formatCount(selection.count)} ${selection.count === 1 ? 'row' : 'rows'} selected`
              : 'No rows selected'}
        </span>
        {!isAll && total > 0 ? (
          <button type="button" className="button button--link" onClick={onSelectAllMatching}>
            Select all matching ({formatCount(total)})
          </button>
        ) : null}
        {hasSelection ? (
          <button type="button" className="button button--link" onClick={onClearSelection}>
            Clear selection
          </button>
        ) : null}
      </div>
      <div className={styles['bulk-bar__actions']}>
        <div className={`field field--inline ${styles['bulk-bar__note']}`}>
          <label htmlFor="decision-note" className="field__label field__label--small">
            Decision note
          </label>
          <input
            id="decision-note"
            className="input input--small"
            value={note}
            maxLength={2000}
            placeholder="Optional, saved with the decision"
            onChange={(event) => onNoteChange(event.target.value)}
          />
        </div>
        <button
          type="button"
          className={`button button--small ${styles['button--approve']}`}
          aria-disabled={isOff}
          onClick={() => decide('approved')}
        >
          Approve
        </button>
        <button
          type="button"
          className={`button button--small ${styles['button--reject']}`}
          aria-disabled={isOff}
          onClick={() => decide('rejected')}
        >
          Reject
        </button>
        <button
          type="button"
          className="button button--small"
          aria-disabled={isOff}
          onClick={() => decide('pending')}
        >
          Reset
        </button>
        {confirmed ? (
          <button
            type="button"
            className={`button button--small ${styles['button--approve']}`}
            data-testid="approve-confirmed"
            title={`Every pending row of this list whose latest finished spot-check is ${confirmed.rows}`}
            aria-disabled={isBusy}
            onClick={() => {
              if (!isBusy) confirmed.onApprove();
            }}
          >
            Approve {formatCount(confirmed.count)} {confirmed.rows} {confirmed.count === 1 ? 'row' : 'rows'}
          </button>
        ) : null}
        <ReviewingAs />
      </div>
      {spotCheck}
      <p
        className={`${styles['bulk-bar__status']} small`}
        role="status"
        aria-live="polite"
        data-testid="decision-status"
      >
        <span key={announcement.id}>{announcement.text}</span>
      </p>
      {errorLine}
    </div>
  );
}
