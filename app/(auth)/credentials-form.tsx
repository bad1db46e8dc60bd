'use client';
// The sign-in and setup form: posts JSON to the API, shows its error message, then goes on.
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';

export function CredentialsForm({
  endpoint,
  withName,
  submitLabel,
  next,
}: {
  endpoint: string;
  withName: boolean;
  submitLabel: string;
  next: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.ok) {
        // Only same-site paths: `next` comes from the URL.
        window.location.assign(next.startsWith('/') && !next.startsWith('//') ? next : '/');
        return;
      }
      const payload = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(payload?.error?.message ?? `The server answered ${response.status}`);
    } catch {
      setError('The server could not be reached');
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="auth-form" noValidate>
      {error && <Alert>{error}</Alert>}
      {withName && (
        <div className="field">
          <label htmlFor="name" className="field__label">
            Your name
          </label>
          <input id="name" name="name" className="input" autoComplete="name" required />
          <p className="field__hint">Shown next to your decisions and in shared reports.</p>
        </div>
      )}
      <div className="field">
        <label htmlFor="email" className="field__label">
          Email
        </label>
        <input id="email" name="email" type="email" className="input" autoComplete="email" required />
      </div>
      <div className="field">
        <label htmlFor="password" className="field__label">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          className="input"
          autoComplete={withName ? 'new-password' : 'current-password'}
          required
        />
        {withName && <p className="field__hint">At least 10 characters.</p>}
      </div>
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Please wait…' : submitLabel}
      </button>
    </form>
  );
}
