'use client';
// The users table (role, enable/disable, delete per row) and the "Add a user" form.
import { useState } from 'react';
import { useSessionUser } from '@/app/session-context';
import { Alert } from '@/components/ui/alert';
import { QueryStatus } from '@/components/ui/query-status';
import { useUsers } from '@/lib/auth/hooks';
import { AddUserForm } from './add-user-form';
import { UserRow } from './user-row';
import styles from './users-admin.module.css';

export function UsersAdmin() {
  const me = useSessionUser();
  const users = useUsers();
  const [actionError, setActionError] = useState<{ title: string; message: string } | null>(null);

  return (
    <div className="stack">
      <section className="card" aria-labelledby="users-heading">
        <div className="card__header">
          <h2 id="users-heading">People</h2>
          {users.data ? (
            <span className="muted small">
              {users.data.length === 1 ? '1 user' : `${users.data.length} users`}
            </span>
          ) : null}
        </div>
        <div className="card__body stack">
          {actionError ? <Alert title={actionError.title}>{actionError.message}</Alert> : null}
          <QueryStatus query={users} loading="Loading users…" failed="The users could not be loaded">
            {(list) => (
              <div className="table-wrap">
                <table className={`plain-table ${styles.cards}`}>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Email</th>
                      <th scope="col">Role</th>
                      <th scope="col">Created</th>
                      <th scope="col">Status</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((user) => (
                      <UserRow
                        key={user.id}
                        user={user}
                        isSelf={me !== null && me.email.toLowerCase() === user.email.toLowerCase()}
                        onError={(title, message) => setActionError({ title, message })}
                        onStart={() => setActionError(null)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </QueryStatus>
        </div>
      </section>
      <AddUserForm />
    </div>
  );
}
