'use client';
// Your own password: the current one, then the new one. Other browsers are signed out; this one stays.
// A field the server refused says why under itself, in a sentence (aria-invalid, aria-describedby).
import type { FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
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
        <Field label="Current password" id="current-password" error={errors.fields.current}>
          {(control) => (
            <input
              {...control}
              name="current"
              type="password"
              className="input"
              autoComplete="current-password"
              required
            />
          )}
        </Field>
        <Field
          label="New password"
          id="new-password"
          hint="At least 10 characters."
          error={errors.fields.password}
        >
          {(control) => (
            <input
              {...control}
              name="password"
              type="password"
              className="input"
              autoComplete="new-password"
              required
            />
          )}
        </Field>
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={change.isPending}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
