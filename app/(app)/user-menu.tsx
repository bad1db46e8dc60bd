'use client';
// Who is signed in, and signing out.
import { useState } from 'react';
import type { SessionUser } from '../session-context';

export function UserMenu({ user }: { user: SessionUser }) {
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    await fetch('/api/v1/auth/logout', { method: 'POST' }).catch(() => {});
    window.location.assign('/login');
  }
  return (
    <span className="user-menu">
      <span className="user-menu__name" title={user.email}>
        {user.name} <span className="badge badge--neutral">{user.role}</span>
      </span>
      <button type="button" className="button button--small" onClick={signOut} disabled={busy}>
        Sign out
      </button>
    </span>
  );
}
