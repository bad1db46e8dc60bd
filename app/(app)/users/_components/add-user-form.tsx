'use client';
// "Add a user": name, email, role (reviewer by default) and an initial password; posts and refreshes the list.
// A field the server refused says why under itself, in a sentence (aria-invalid, aria-describedby).
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
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
          <Field label="Name" id="new-user-name" error={errors.fields.name}>
            {(control) => (
              <input
                {...control}
                className="input"
                value={input.name}
                required
                maxLength={100}
                autoComplete="off"
                onChange={(event) => update({ name: event.target.value })}
              />
            )}
          </Field>
          <Field label="Email" id="new-user-email" error={errors.fields.email}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="email"
                value={input.email}
                required
                maxLength={254}
                autoComplete="off"
                onChange={(event) => update({ email: event.target.value })}
              />
            )}
          </Field>
          <Field label="Role" id="new-user-role" error={errors.fields.role}>
            {(control) => (
              <select
                {...control}
                className="select"
                value={input.role}
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
            )}
          </Field>
          <Field
            label="Initial password"
            id="new-user-password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters. Share it with them safely.`}
            error={errors.fields.password}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                type="password"
                value={input.password}
                required
                minLength={MIN_PASSWORD_LENGTH}
                maxLength={1024}
                autoComplete="new-password"
                onChange={(event) => update({ password: event.target.value })}
              />
            )}
          </Field>
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
