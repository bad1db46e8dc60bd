'use client';
// The sign-in and setup forms: post to the API through their hooks, show its error message, then go on.
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { useLogin, useSetup } from '@/lib/auth/hooks';
import { safeNextPath } from '@/lib/auth/next-path';

interface Fields {
  name: string;
  email: string;
  password: string;
}

/** A full page load, so the app's layout reads the new session cookie. Only same-origin paths: `next`
 * comes from the URL (the server has vetted it already; checked again here all the same). */
function goOn(next: string) {
  window.location.assign(safeNextPath(next));
}

export function LoginForm({ next }: { next: string }) {
  const login = useLogin();
  return (
    <CredentialsForm
      withName={false}
      submitLabel="Sign in"
      busy={login.isPending || login.isSuccess}
      error={login.error}
      onSubmit={({ email, password }) =>
        login.mutate({ email, password, next }, { onSuccess: (answer) => goOn(answer.next) })
      }
    />
  );
}

export function SetupForm() {
  const setup = useSetup();
  return (
    <CredentialsForm
      withName
      submitLabel="Create admin account"
      busy={setup.isPending || setup.isSuccess}
      error={setup.error}
      onSubmit={(fields) => setup.mutate(fields, { onSuccess: () => goOn('/') })}
    />
  );
}

function CredentialsForm({
  withName,
  submitLabel,
  busy,
  error,
  onSubmit,
}: {
  withName: boolean;
  submitLabel: string;
  busy: boolean;
  error: Error | null;
  onSubmit: (fields: Fields) => void;
}) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (key: keyof Fields) => String(form.get(key) ?? '');
    onSubmit({ name: field('name'), email: field('email'), password: field('password') });
  }

  return (
    <form onSubmit={submit} className="auth-form" noValidate>
      {error && <Alert>{error.message}</Alert>}
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
