'use client';
// Your own password: the current one, then the new one. Other browsers are signed out; this one stays.
// A field the server refused says why under itself, in a sentence (aria-invalid, aria-describedby).
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { joinIds } from '@/components/ui/aria';
import { useChangePassword } from '@/lib/auth/hooks';
import { formErrors } from '@/lib/client/field-errors';

export function ChangePassword() {
  const change = useChangePassword();
  const errors = formErrors(change.error, { current: 'Current password', password: 'New password' });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    change.mutate(
      { current: String(data.get('current')), password: String(data.get('password')) },
      { onSuccess: () => form.reset() },
    );
  }

  return (
    <section className="card" aria-labelledby="password-heading">
      <div className="card__header">
        <h2 id="password-heading">Password</h2>
      </div>
      <form className="card__body stack" onSubmit={submit}>
        {change.isError ? (
          <Alert title="The password was not changed">
            {errors.summary ?? 'Check the fields marked below.'}
          </Alert>
        ) : null}
        {change.isSuccess ? (
          <Alert tone="info" title="Password changed">
            Other browsers were signed out.
          </Alert>
        ) : null}
        <div className="field">
          <label htmlFor="current-password" className="field__label">
            Current password
          </label>
          <input
            id="current-password"
            name="current"
            type="password"
            className="input"
            autoComplete="current-password"
            required
            aria-invalid={errors.fields.current ? true : undefined}
            aria-describedby={errors.fields.current ? 'current-password-error' : undefined}
          />
          {errors.fields.current ? (
            <span id="current-password-error" className="field__error">
              {errors.fields.current}
            </span>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="new-password" className="field__label">
            New password
          </label>
          <input
            id="new-password"
            name="password"
            type="password"
            className="input"
            autoComplete="new-password"
            required
            aria-invalid={errors.fields.password ? true : undefined}
            aria-describedby={joinIds('new-password-hint', errors.fields.password && 'new-password-error')}
          />
          <p id="new-password-hint" className="field__hint">
            At least 10 characters.
          </p>
          {errors.fields.password ? (
            <span id="new-password-error" className="field__error">
              {errors.fields.password}
            </span>
          ) : null}
        </div>
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
