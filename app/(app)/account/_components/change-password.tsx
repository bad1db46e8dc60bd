'use client';
// Your own password: the current one, then the new one. Other browsers are signed out; this one stays.
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { apiFetch } from '@/lib/audits/hooks';

export function ChangePassword() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await apiFetch<void>('/api/v1/auth/password', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          current: String(data.get('current')),
          password: String(data.get('password')),
        }),
      });
      form.reset();
      setDone(true);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Something went wrong.');
    }
    setBusy(false);
  }

  return (
    <section className="card" aria-labelledby="password-heading">
      <div className="card__header">
        <h2 id="password-heading">Password</h2>
      </div>
      <form className="card__body stack" onSubmit={submit}>
        {error ? <Alert title="The password was not changed">{error}</Alert> : null}
        {done ? (
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
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
