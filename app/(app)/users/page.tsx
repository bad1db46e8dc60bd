// Users (admins only): everyone who can sign in, their roles, and adding new people.
import type { Metadata } from 'next';
import { requirePageActor } from '@/lib/auth/page';
import { UsersAdmin } from './_components/users-admin';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  await requirePageActor('admin', '/users');
  return (
    <>
      <div className="page-header">
        <div className="page-header__title">
          <h1>Users</h1>
          <p className="muted">
            Admins manage users; reviewers create and review audits; viewers can only look.
          </p>
        </div>
      </div>
      <UsersAdmin />
    </>
  );
}
