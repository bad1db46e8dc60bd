'use client';
// Read-only links to this audit's report for people without an account: create (optionally expiring),
// copy once, revoke. Reviewers and admins only (the API enforces it too).
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { formatDateTime } from '@/lib/audits/format';
import { useCreateShare, useRevokeShare, useShares } from '@/lib/auth/hooks';

const EXPIRY_DAYS = [
  { value: '', label: 'Never expires' },
  { value: '1', label: 'Expires in 1 day' },
  { value: '7', label: 'Expires in 7 days' },
  { value: '30', label: 'Expires in 30 days' },
];

export function SharePanel({ auditId }: { auditId: string }) {
  const shares = useShares(auditId);
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateShare(auditId);
  const revoke = useRevokeShare(auditId);
  const createShare = () =>
    create.mutate(
      { expiresAt: days ? new Date(Date.now() + Number(days) * 86_400_000).toISOString() : null },
      { onSuccess: (share) => setCreated(share.url) },
    );
  const live = (shares.data ?? []).filter(
    (s) => !s.revokedAt && (!s.expiresAt || new Date(s.expiresAt) > new Date()),
  );

  return (
    <section className="card" aria-labelledby="share-title">
      <div className="card__header">
        <h2 id="share-title">Share a read-only report</h2>
      </div>
      <div className="card__body stack">
        <p className="small muted">
          Anyone with the link sees this audit's summary and lists with their decisions — nothing else, and
          they cannot change anything. Links are not indexed by search engines.
        </p>
        <div className="share-create">
          <label htmlFor="share-expiry" className="field__label field__label--small">
            Link expiry
          </label>
          <select
            id="share-expiry"
            className="select select--small share-create__select"
            value={days}
            onChange={(e) => setDays(e.target.value)}
          >
            {EXPIRY_DAYS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button--small button--primary"
            disabled={create.isPending}
            onClick={createShare}
          >
            Create share link
          </button>
        </div>
        {create.isError ? <Alert>{create.error.message}</Alert> : null}
        {created ? (
          <div>
            <p className="small">Copy the link now: it is shown only once.</p>
            <p className="token-reveal" data-testid="share-url">
              {created}
            </p>
          </div>
        ) : null}
        {live.length > 0 ? (
          <table className="plain-table">
            <caption className="visually-hidden">Live share links</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">By</th>
                <th scope="col">Expires</th>
                <th scope="col">Last opened</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {live.map((s) => (
                <tr key={s.id} data-testid="share-row">
                  <td>{formatDateTime(s.createdAt)}</td>
                  <td>{s.createdBy}</td>
                  <td>{s.expiresAt ? formatDateTime(s.expiresAt) : 'never'}</td>
                  <td>{s.lastViewedAt ? formatDateTime(s.lastViewedAt) : 'not yet'}</td>
                  <td>
                    <button
                      type="button"
                      className="button button--small button--danger"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(s.id)}
                    >
                      Revoke
                      <span className="visually-hidden"> the link created {formatDateTime(s.createdAt)}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        {revoke.isError ? <Alert>{revoke.error.message}</Alert> : null}
      </div>
    </section>
  );
}
