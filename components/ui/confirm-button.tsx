'use client';
// A button that asks for confirmation in a modal <dialog> before running a destructive action.
import { type ReactNode, useId, useRef } from 'react';

export function ConfirmButton({
  children,
  title,
  message,
  confirmLabel,
  dismissLabel = 'Cancel',
  busy = false,
  disabled = false,
  testId,
  onConfirm,
}: {
  children: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** The safe choice; rename it where "Cancel" would be ambiguous (e.g. "Cancel this audit?"). */
  dismissLabel?: string;
  busy?: boolean;
  /** Disables the button that opens the dialog (e.g. while the action runs). */
  disabled?: boolean;
  testId?: string;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const messageId = useId();
  const close = () => dialog.current?.close();
  return (
    <>
      <button
        type="button"
        className="button button--danger"
        disabled={disabled}
        data-testid={testId}
        onClick={() => dialog.current?.showModal()}
      >
        {children}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId} aria-describedby={messageId}>
        <div className="dialog__body">
          <h2 id={titleId}>{title}</h2>
          <div id={messageId} className="muted">
            {message}
          </div>
        </div>
        <div className="dialog__actions">
          {/* autoFocus on the safe choice: Enter should not delete by accident. */}
          {/* biome-ignore lint/a11y/noAutofocus: focus belongs in the dialog when it opens */}
          <button type="button" className="button" onClick={close} autoFocus>
            {dismissLabel}
          </button>
          <button
            type="button"
            className="button button--danger-solid"
            disabled={busy}
            onClick={() => {
              onConfirm();
              close();
            }}
          >
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
