'use client';
// Ends every session of this account (API tokens stay), then goes to the sign-in page.
import { Alert } from '@/components/ui/alert';
import { useLogoutEverywhere } from '@/lib/auth/hooks';

export function SignOutEverywhere() {
  const logout = useLogoutEverywhere();
  // Stays busy after success: the page is on its way to the sign-in page.
  const busy = logout.isPending || logout.isSuccess;
  const signOutEverywhere = () =>
    logout.mutate(undefined, { onSuccess: () => window.location.assign('/login') });

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
        {logout.isError ? <Alert title="Could not sign out everywhere">{logout.error.message}</Alert> : null}
        <div className="form-actions">
          <button type="button" className="button button--danger" onClick={signOutEverywhere} disabled={busy}>
            {busy ? 'Signing out…' : 'Sign out everywhere'}
          </button>
        </div>
      </div>
    </section>
  );
}
