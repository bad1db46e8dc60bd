'use client';
// The bulk bar: what is selected (rows by id, or every row matching the filter), an optional note, the
// three decisions, who is reviewing, and a live region that reports how many rows changed.
import { useEffect, useState } from 'react';
import { formatCount } from '@/lib/audits/format';
import { useReviewerName } from '@/lib/findings/hooks';
import type { Decision } from '@/lib/findings/schema';

export type SelectionSummary = { mode: 'ids'; count: number } | { mode: 'all'; count: number };

function ReviewerName() {
  const [stored, setStored] = useReviewerName();
  const [draft, setDraft] = useState(stored);
  // Stored names are trimmed: keep what is being typed (a trailing space) when it is the same name.
  useEffect(() => setDraft((current) => (current.trim() === stored ? current : stored)), [stored]);
  return (
    <div className="field field--inline reviewer">
      <label htmlFor="reviewer-name" className="field__label field__label--small">
        Reviewing as
      </label>
      <input
        id="reviewer-name"
        className="input input--small"
        value={draft}
        maxLength={100}
        autoComplete="nickname"
        onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value.trim()) setStored(event.target.value);
        }}
        onBlur={() => {
          if (!draft.trim()) setStored('');
          setDraft(draft.trim() || stored);
        }}
      />
    </div>
  );
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
        <ReviewerName />
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
