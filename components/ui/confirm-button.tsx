'use client';
// A button that asks for confirmation in a modal <dialog> before running a destructive action.
import { type ReactNode, useId, useRef } from 'react';

export function ConfirmButton({
  children,
  title,
  message,
  confirmLabel,
  busy = false,
  onConfirm,
}: {
  children: ReactNode;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = () => dialog.current?.close();
  return (
    <>
      <button type="button" className="button button--danger" onClick={() => dialog.current?.showModal()}>
        {children}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId}>
        <div className="dialog__body">
          <h2 id={titleId}>{title}</h2>
          <div className="muted">{message}</div>
        </div>
        <div className="dialog__actions">
          {/* autoFocus on the safe choice: Enter should not delete by accident. */}
          {/* biome-ignore lint/a11y/noAutofocus: focus belongs in the dialog when it opens */}
          <button type="button" className="button" onClick={close} autoFocus>
            Cancel
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
