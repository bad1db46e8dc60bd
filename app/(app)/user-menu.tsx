'use client';
// Who is signed in, and signing out.
import { useLogout } from '@/lib/auth/hooks';
import type { SessionUser } from '../session-context';
import shell from './app-shell.module.css';

export function UserMenu({ user }: { user: SessionUser }) {
  const logout = useLogout();
  // Off to the sign-in page whatever the answer: a failed sign-out leaves nothing to retry here.
  const signOut = () => logout.mutate(undefined, { onSettled: () => window.location.assign('/login') });
  return (
    <span className={shell.userMenu}>
      <span className={shell.userName} title={user.email}>
        {user.name} <span className="badge badge--neutral">{user.role}</span>
      </span>
      <button
        type="button"
        className="button button--small"
        onClick={signOut}
        disabled={logout.isPending || logout.isSuccess}
      >
        Sign out
      </button>
    </span>
  );
}
