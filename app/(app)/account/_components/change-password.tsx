'use client';
// Your own password: the current one, then the new one. Other browsers are signed out; this one stays.
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { useChangePassword } from '@/lib/auth/hooks';

export function ChangePassword() {
  const change = useChangePassword();

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
        {change.isError ? <Alert title="The password was not changed">{change.error.message}</Alert> : null}
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
          />
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
          />
          <p className="field__hint">At least 10 characters.</p>
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
