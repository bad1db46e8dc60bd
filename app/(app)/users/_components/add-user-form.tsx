'use client';
// "Add a user": name, email, role (reviewer by default) and an initial password; posts and refreshes the list.
// A field the server refused says why under itself, in a sentence (aria-invalid, aria-describedby).
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { joinIds } from '@/components/ui/aria';
import { useCreateUser } from '@/lib/auth/hooks';
import { isRole, ROLES } from '@/lib/auth/roles';
import type { TNewUser } from '@/lib/auth/schema';
import { formErrors } from '@/lib/client/field-errors';
import { ROLE_LABELS } from './role-labels';

const MIN_PASSWORD_LENGTH = 10;

const EMPTY: TNewUser = { name: '', email: '', role: 'reviewer', password: '' };

export function AddUserForm() {
  const [input, setInput] = useState<TNewUser>(EMPTY);
  const [added, setAdded] = useState<string | null>(null);
  const update = (patch: Partial<TNewUser>) => setInput((current) => ({ ...current, ...patch }));

  const create = useCreateUser();
  const errors = formErrors(create.error, {
    name: 'Name',
    email: 'Email',
    role: 'Role',
    password: 'Initial password',
  } satisfies Record<keyof TNewUser, string>);
  const problem = (field: keyof TNewUser) => ({
    'aria-invalid': errors.fields[field] ? true : undefined,
    'aria-describedby': joinIds(
      field === 'password' && 'new-user-password-hint',
      errors.fields[field] && `new-user-${field}-error`,
    ),
  });
  const errorLine = (field: keyof TNewUser) =>
    errors.fields[field] ? (
      <span id={`new-user-${field}-error`} className="field__error">
        {errors.fields[field]}
      </span>
    ) : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    create.mutate(
      { ...input, name: input.name.trim(), email: input.email.trim() },
      {
        onSuccess: (user) => {
          setAdded(`${user.name} (${user.email}) was added as ${ROLE_LABELS[user.role].toLowerCase()}.`);
          setInput(EMPTY);
        },
      },
    );
  };

  return (
    <section className="card" aria-labelledby="add-user-heading">
      <div className="card__header">
        <h2 id="add-user-heading">Add a user</h2>
      </div>
      <form className="card__body form-section" onSubmit={onSubmit}>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="new-user-name" className="field__label">
              Name
            </label>
            <input
              id="new-user-name"
              className="input"
              value={input.name}
              required
              maxLength={100}
              autoComplete="off"
              {...problem('name')}
              onChange={(event) => update({ name: event.target.value })}
            />
            {errorLine('name')}
          </div>
          <div className="field">
            <label htmlFor="new-user-email" className="field__label">
              Email
            </label>
            <input
              id="new-user-email"
              className="input"
              type="email"
              value={input.email}
              required
              maxLength={254}
              autoComplete="off"
              {...problem('email')}
              onChange={(event) => update({ email: event.target.value })}
            />
            {errorLine('email')}
          </div>
          <div className="field">
            <label htmlFor="new-user-role" className="field__label">
              Role
            </label>
            <select
              id="new-user-role"
              className="select"
              value={input.role}
              {...problem('role')}
              onChange={(event) => {
                const role = event.target.value;
                if (isRole(role)) update({ role });
              }}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
            {errorLine('role')}
          </div>
          <div className="field">
            <label htmlFor="new-user-password" className="field__label">
              Initial password
            </label>
            <input
              id="new-user-password"
              className="input"
              type="password"
              value={input.password}
              required
              minLength={MIN_PASSWORD_LENGTH}
              maxLength={1024}
              autoComplete="new-password"
              {...problem('password')}
              onChange={(event) => update({ password: event.target.value })}
            />
            <span id="new-user-password-hint" className="field__hint">
              At least {MIN_PASSWORD_LENGTH} characters. Share it with them safely.
            </span>
            {errorLine('password')}
          </div>
        </div>
        {create.isError ? (
          <Alert title="The user could not be added">
            {errors.summary ?? 'Check the fields marked above.'}
          </Alert>
        ) : null}
        {added ? (
          <Alert tone="info" title="User added">
            {added}
          </Alert>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add user'}
          </button>
        </div>
      </form>
    </section>
  );
}
