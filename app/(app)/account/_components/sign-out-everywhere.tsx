'use client';
// Ends every session of this account (API tokens stay), then goes to the sign-in page.
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { apiFetch } from '@/lib/audits/hooks';

export function SignOutEverywhere() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signOutEverywhere() {
    setBusy(true);
    setError(null);
    try {
      await apiFetch<{ sessions: number }>('/api/v1/auth/logout-all', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      window.location.assign('/login');
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Something went wrong.');
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="sessions-heading">
      <div className="card__header">
        <h2 id="sessions-heading">Sessions</h2>
      </div>
      <div className="card__body stack">
        <p className="muted">
          Signs you out on every browser and device, this one included. Your API tokens keep working; revoke
          them above if they may have leaked.
        </p>
        {error ? <Alert title="Could not sign out everywhere">{error}</Alert> : null}
        <div className="form-actions">
          <button type="button" className="button button--danger" onClick={signOutEverywhere} disabled={busy}>
            {busy ? 'Signing out…' : 'Sign out everywhere'}
          </button>
        </div>
      </div>
    </section>
  );
}
