'use client';
// One user in the table: role select (saved on change), Disable/Enable, Reset password (a dialog) and
// Delete (confirmed).
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useDeleteUser, useUpdateUser } from '@/lib/auth/hooks';
import { isRole, ROLES } from '@/lib/auth/roles';
import type { TUserChange } from '@/lib/auth/schema';
import type { UserDto } from '@/lib/auth/types';
import { formatDateTime } from '@/lib/core/format';
import { ResetPassword } from './reset-password';
import { ROLE_LABELS } from './role-labels';

export function UserRow({
  user,
  isSelf,
  onStart,
  onError,
}: {
  user: UserDto;
  isSelf: boolean;
  onStart: () => void;
  onError: (title: string, message: string) => void;
}) {
  const update = useUpdateUser(user.id);
  const remove = useDeleteUser(user.id);
  const change = (body: TUserChange) => {
    onStart();
    update.mutate(body, { onError: (error) => onError(`${user.name} could not be changed`, error.message) });
  };
  const removeUser = () => {
    onStart();
    remove.mutate(undefined, {
      onError: (error) => onError(`${user.name} could not be deleted`, error.message),
    });
  };

  const busy = update.isPending || remove.isPending;
  const disabled = user.disabledAt !== null;
  const selectId = `user-role-${user.id}`;

  return (
    <tr>
      <td>
        {user.name}
        {isSelf ? <span className="muted"> (you)</span> : null}
      </td>
      <td>{user.email}</td>
      <td>
        <label htmlFor={selectId} className="visually-hidden">
          Role of {user.name}
        </label>
        <select
          id={selectId}
          className="select select--small"
          value={user.role}
          disabled={busy || isSelf}
          title={isSelf ? 'You cannot change your own role' : undefined}
          onChange={(event) => {
            const role = event.target.value;
            if (isRole(role) && role !== user.role) change({ role });
          }}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </td>
      <td>
        <time dateTime={user.createdAt}>{formatDateTime(user.createdAt)}</time>
      </td>
      <td>
        {disabled ? (
          <span className="badge badge--neutral" title={`Disabled ${formatDateTime(user.disabledAt)}`}>
            Disabled
          </span>
        ) : (
          <span className="badge badge--success">Active</span>
        )}
      </td>
      <td>
        {isSelf ? null : (
          <div className="form-actions">
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => change({ disabled: !disabled })}
            >
              {disabled ? 'Enable' : 'Disable'}
              <span className="visually-hidden"> {user.name}</span>
            </button>
            <ResetPassword user={user} disabled={busy} />
            <ConfirmButton
              title={`Delete ${user.name}?`}
              message={
                <>
                  {user.email} will no longer be able to sign in; their sessions, API tokens and share links
                  are removed too. This cannot be undone: to only lock them out, disable them instead.
                </>
              }
              confirmLabel="Delete user"
              busy={remove.isPending}
              onConfirm={removeUser}
            >
              Delete<span className="visually-hidden"> {user.name}</span>
            </ConfirmButton>
          </div>
        )}
      </td>
    </tr>
  );
}
