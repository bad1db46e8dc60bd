'use client';
// An admin sets a new password for someone (they forgot it, or it may be known to someone else). Their
// sessions end; their API tokens are revoked too unless the admin unticks the box (ticked by default:
// whoever knew the password may have made a token with it). The dialog stays open while it saves and
// when it fails, with the reason; it closes when the password is set.
import { type FormEvent, useId, useRef, useState } from 'react';
import { Field } from '@/components/ui/field';
import { useUpdateUser } from '@/lib/auth/hooks';
import type { UserDto } from '@/lib/auth/types';
import { formErrors } from '@/lib/client/field-errors';

export function ResetPassword({ user, disabled }: { user: UserDto; disabled: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const update = useUpdateUser(user.id);
  const [done, setDone] = useState<string | null>(null);
  const titleId = useId();
  // A refused password says why under the field, in a sentence; anything else below the form.
  const resetErrors = formErrors(update.error, { password: 'The new password' });
  const passwordError = resetErrors.fields.password;

  function open() {
    update.reset();
    setDone(null);
    form.current?.reset();
    dialog.current?.showModal();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (update.isPending) return;
    const data = new FormData(event.currentTarget);
    const revokeTokens = data.get('revokeTokens') === 'on';
    update.mutate(
      { password: String(data.get('password') ?? ''), revokeTokens },
      {
        onSuccess: () => {
          dialog.current?.close();
          setDone(
            revokeTokens
              ? `New password set for ${user.name}; signed out, API tokens revoked.`
              : `New password set for ${user.name}; signed out, API tokens kept.`,
          );
        },
      },
    );
  }

  return (
    <>
      <button type="button" className="button button--small" disabled={disabled} onClick={open}>
        Reset password<span className="visually-hidden"> of {user.name}</span>
      </button>
      {done ? (
        <span className="visually-hidden" role="status">
          {done}
        </span>
      ) : null}
      <dialog
        ref={dialog}
        className="dialog"
        aria-labelledby={titleId}
        data-testid="reset-password-dialog"
        onCancel={(event) => {
          if (update.isPending) event.preventDefault();
        }}
      >
        <form ref={form} onSubmit={submit} noValidate>
          <div className="dialog__body stack">
            <h2 id={titleId}>Reset the password of {user.name}?</h2>
            <p className="muted">
              {user.email} is signed out everywhere and signs in with the new password. Give it to them
              another way than by email.
            </p>
            <Field label="New password" hint="At least 10 characters." error={passwordError} announce>
              {(control) => (
                <input
                  {...control}
                  name="password"
                  type="password"
                  className="input"
                  autoComplete="new-password"
                  minLength={10}
                  required
                />
              )}
            </Field>
            <label className="choice dialog__choice">
              <input type="checkbox" name="revokeTokens" defaultChecked />
              <span className="choice__text">
                <span className="choice__title">Also revoke their API tokens</span>
                <span className="choice__desc">
                  Scripts using them stop working. Untick only if the old password was not exposed.
                </span>
              </span>
            </label>
            {update.isError && !passwordError ? (
              <p className="field__error" role="alert">
                {resetErrors.summary}
              </p>
            ) : null}
          </div>
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" aria-disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Set new password'}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
