'use client';
// The confirmation of a decision on every row matching a filter (more than one page of rows): what it will
// do, from the server's preview ("980 pending rows will be approved; 1 rejected row stays rejected"), with
// a checkbox to change decided rows too. Its title counts from the same preview as its button. It stays open while the decision runs and when it fails, with the
// reason, so focus stays where it was; it closes when the decision is recorded.
import { useEffect, useId, useRef, useState } from 'react';
import { decisionVerb, previewSentence } from '@/components/findings/decision-words';
import { formatCount } from '@/lib/core/format';
import type { Decision, TFindingFilter } from '@/lib/findings/schema';
import { bulkDecisionTitle } from '@/lib/review/bulk-title';
import { useDecisionPreview } from '@/lib/review/hooks';
import styles from './review.module.css';

export interface BulkRequest {
  /** New for every request, so the dialog starts again unticked. */
  id: number;
  decision: Decision;
  filter: TFindingFilter;
  /** The review's count of the rows, for the title until the preview has counted them. */
  total: number;
  /** What the rows are, for the title ("confirmed or dead" rows); else they are the matching rows. */
  rows?: string;
}

interface BodyProps {
  auditId: string;
  request: BulkRequest;
  isBusy: boolean;
  error: string | null;
  titleId: string;
  messageId: string;
  onConfirm: (override: boolean) => void;
  onCancel: () => void;
}

function DialogBody({ auditId, request, isBusy, error, titleId, messageId, onConfirm, onCancel }: BodyProps) {
  const [override, setOverride] = useState(false);
  const { decision, filter, total, rows = 'matching' } = request;
  const preview = useDecisionPreview(auditId, { decision, filter, override });
  const isCurrent = preview.data !== undefined && !preview.isPlaceholderData;
  const willChange = preview.data?.willChange ?? 0;
  const canConfirm = isCurrent && willChange > 0 && !isBusy;
  const verb = decisionVerb(decision);
  return (
    <>
      <div className="dialog__body">
        <h2 id={titleId}>{bulkDecisionTitle(verb, rows, isCurrent ? preview.data : undefined, total)}</h2>
        <p id={messageId} data-testid="bulk-preview" aria-live="polite" aria-busy={!isCurrent}>
          {preview.isError
            ? `The rows could not be counted: ${preview.error.message}`
            : preview.data
              ? previewSentence(preview.data, decision, override)
              : 'Counting the rows…'}
        </p>
        <label className="choice dialog__choice">
          <input type="checkbox" checked={override} onChange={(event) => setOverride(event.target.checked)} />
          <span className="choice__text">
            <span className="choice__title">Also change decided rows</span>
            <span className="choice__desc">
              Without it, rows someone already approved or rejected keep their decision.
            </span>
          </span>
        </label>
        {error ? (
          <p className="field__error" role="alert" data-testid="bulk-error">
            {error}
          </p>
        ) : null}
      </div>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onCancel} data-dialog-focus>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${decision === 'approved' ? styles['button--approve'] : 'button--primary'}`}
          // aria-disabled, not disabled: a button that disables itself while working would drop focus.
          aria-disabled={!canConfirm}
          data-testid="bulk-confirm"
          onClick={() => {
            if (canConfirm) onConfirm(override);
          }}
        >
          {isBusy ? 'Working…' : `${verb} ${formatCount(willChange)} ${willChange === 1 ? 'row' : 'rows'}`}
        </button>
      </div>
    </>
  );
}

export function BulkDecisionDialog({
  auditId,
  request,
  isBusy,
  error,
  onConfirm,
  onCancel,
}: {
  auditId: string;
  request: BulkRequest | null;
  isBusy: boolean;
  error: string | null;
  onConfirm: (override: boolean) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // Focus starts on the safe choice, so Enter cannot decide by accident. (React's autoFocus runs before
    // the dialog is open, when nothing in it can take focus.) Closing, not unmounting, returns focus to
    // the button that opened the dialog.
    if (request && !element.open) {
      element.showModal();
      element.querySelector<HTMLElement>('[data-dialog-focus]')?.focus();
    }
    if (!request && element.open) element.close();
  }, [request]);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      data-testid="bulk-dialog"
      onCancel={(event) => {
        // Escape while the decision runs would hide its outcome.
        if (isBusy) event.preventDefault();
      }}
      onClose={() => {
        if (request) onCancel();
      }}
    >
      {request ? (
        <DialogBody
          key={request.id}
          auditId={auditId}
          request={request}
          isBusy={isBusy}
          error={error}
          titleId={titleId}
          messageId={messageId}
          onConfirm={onConfirm}
          onCancel={onCancel}
        />
      ) : null}
    </dialog>
  );
}
