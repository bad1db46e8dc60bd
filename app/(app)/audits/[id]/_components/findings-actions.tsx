'use client';
import { useCan, useSessionUser } from '@/app/session-context';
// The bulk bar: what is selected (rows by id, or every row matching the filter), an optional note, the
// three decisions, who is deciding (the signed-in user), and a live region that reports how many rows changed.
import { formatCount } from '@/lib/audits/format';
import type { Decision } from '@/lib/findings/schema';

export type SelectionSummary = { mode: 'ids'; count: number } | { mode: 'all'; count: number };

function ReviewingAs() {
  const user = useSessionUser();
  return user ? <span className="small reviewer">Deciding as {user.name}</span> : null;
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
}) {
  const canDecide = useCan('reviewer');
  if (!canDecide) {
    return (
      <p className="small muted" data-testid="read-only-note">
        You have read-only access: reviewers and admins approve or reject findings.
      </p>
    );
  }
  const hasSelection = selection.count > 0;
  const isAll = selection.mode === 'all';
  return (
    <div className="bulk-bar" data-testid="bulk-bar">
      <div className="bulk-bar__selection">
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
      <div className="bulk-bar__actions">
        <div className="field field--inline bulk-bar__note">
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
          className="button button--small button--approve"
          disabled={!hasSelection || isBusy}
          onClick={() => onDecide('approved')}
        >
          Approve
        </button>
        <button
          type="button"
          className="button button--small button--reject"
          disabled={!hasSelection || isBusy}
          onClick={() => onDecide('rejected')}
        >
          Reject
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={!hasSelection || isBusy}
          onClick={() => onDecide('pending')}
        >
          Reset
        </button>
        <ReviewingAs />
      </div>
      <p className="bulk-bar__status small" role="status" aria-live="polite" data-testid="decision-status">
        <span key={announcement.id}>{announcement.text}</span>
      </p>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
