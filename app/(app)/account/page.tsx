// Your account: who you are, your API tokens, and signing out on every browser.
import type { Metadata } from 'next';
import { requirePageActor } from '@/lib/auth/page';
import { ApiTokens } from './_components/api-tokens';
import { ChangePassword } from './_components/change-password';
import { SignOutEverywhere } from './_components/sign-out-everywhere';

export const metadata: Metadata = { title: 'Account' };

const ROLE_DESCRIPTIONS = {
  admin: 'Admin — manages users, and can do everything a reviewer can',
  reviewer: 'Reviewer — creates audits and reviews their findings',
  viewer: 'Viewer — can look at audits, not change them',
} as const;

export default async function AccountPage() {
  const actor = await requirePageActor('viewer', '/account');
  return (
    <>
      <div className="page-header">
        <div className="page-header__title">
          <h1>Account</h1>
          <p className="muted">Your details, API tokens for scripts, and your sessions.</p>
        </div>
      </div>
      <div className="stack">
        <section className="card" aria-labelledby="me-heading">
          <div className="card__header">
            <h2 id="me-heading">You</h2>
          </div>
          <div className="card__body">
            <dl className="kv">
              <dt>Name</dt>
              <dd>{actor.name}</dd>
              <dt>Email</dt>
              <dd>{actor.email}</dd>
              <dt>Role</dt>
              <dd>
                <span className="badge badge--neutral">{actor.role}</span>{' '}
                <span className="muted small">{ROLE_DESCRIPTIONS[actor.role]}</span>
              </dd>
            </dl>
          </div>
        </section>
        <ChangePassword />
        <ApiTokens />
        <SignOutEverywhere />
      </div>
    </>
  );
}
