'use client';
// The sign-in and setup forms: post to the API through their hooks, then go on. A refused field says why
// under itself, in a sentence (aria-invalid, aria-describedby); anything else is said above the form.
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { useLogin, useSetup } from '@/lib/auth/hooks';
import { safeNextPath } from '@/lib/auth/next-path';
import { formErrors } from '@/lib/client/field-errors';
import styles from './auth.module.css';

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
  const errors = formErrors(error, {
    name: 'Your name',
    email: 'Email',
    password: 'Password',
  } satisfies Record<keyof Fields, string>);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (key: keyof Fields) => String(form.get(key) ?? '');
    onSubmit({ name: field('name'), email: field('email'), password: field('password') });
  }

  return (
    <form onSubmit={submit} className={styles.form} noValidate>
      {errors.summary ? <Alert>{errors.summary}</Alert> : null}
      {withName && (
        <Field
          label="Your name"
          id="name"
          hint="Shown next to your decisions and in shared reports."
          error={errors.fields.name}
        >
          {(control) => <input {...control} name="name" className="input" autoComplete="name" required />}
        </Field>
      )}
      <Field label="Email" id="email" error={errors.fields.email}>
        {(control) => (
          <input {...control} name="email" type="email" className="input" autoComplete="email" required />
        )}
      </Field>
      <Field
        label="Password"
        id="password"
        hint={withName ? 'At least 10 characters.' : undefined}
        error={errors.fields.password}
      >
        {(control) => (
          <input
            {...control}
            name="password"
            type="password"
            className="input"
            autoComplete={withName ? 'new-password' : 'current-password'}
            required
          />
        )}
      </Field>
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Please wait…' : submitLabel}
      </button>
    </form>
  );
}
