'use client';
// Read-only links to this audit's report for people without an account: create (optionally expiring),
// copy once, revoke after a confirmation. Every link stays listed — live, expired or revoked, with when and
// by whom — the live ones first. Reviewers and admins only (the API enforces it too).
import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { ConfirmButton } from '@/components/ui/confirm-button';
import revealStyles from '@/components/ui/token-reveal.module.css';
import { useCreateShare, useRevokeShare, useShares } from '@/lib/auth/hooks';
import type { ShareDto, ShareStatus } from '@/lib/auth/types';
import { formatDateTime } from '@/lib/core/format';
import styles from './sharing.module.css';

const EXPIRY_DAYS = [
  { value: '', label: 'Never expires' },
  { value: '1', label: 'Expires in 1 day' },
  { value: '7', label: 'Expires in 7 days' },
  { value: '30', label: 'Expires in 30 days' },
];

const STATUS: Record<ShareStatus, { label: string; tone: BadgeTone }> = {
  active: { label: 'Active', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'danger' },
};

type CopyState = 'copied' | 'selected' | null;

/** Selects the element's text, so Ctrl+C / ⌘C copies it where the clipboard API is refused (a page
 * served over plain http, a browser that denies the permission). */
function selectText(element: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** The one-time link, with a Copy button; "Copied" is announced in a polite live region. */
function CreatedLink({ url }: { url: string }) {
  const text = useRef<HTMLParagraphElement>(null);
  const [copy, setCopy] = useState<CopyState>(null);
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopy('copied');
    } catch {
      if (text.current) selectText(text.current);
      // execCommand still copies a selection in every browser that refuses the clipboard API.
      setCopy(document.execCommand?.('copy') ? 'copied' : 'selected');
    }
  };
  return (
    <div className="share-created stack" data-testid="share-created">
      <p className="small">Copy the link now: it is shown only once.</p>
      <div className={styles['share-created__row']}>
        <p
          className={`${revealStyles['token-reveal']} ${styles['share-created__url']}`}
          data-testid="share-url"
          ref={text}
        >
          {url}
        </p>
        <button type="button" className="button button--small" onClick={copyLink} data-testid="share-copy">
          Copy<span className="visually-hidden"> the share link</span>
        </button>
      </div>
      <p className="muted small" aria-live="polite" data-testid="share-copy-status">
        {copy === 'copied'
          ? 'Copied'
          : copy === 'selected'
            ? 'The link is selected: press Ctrl+C (⌘C) to copy it.'
            : ''}
      </p>
    </div>
  );
}

function ShareItem({
  share,
  busy,
  onRevoke,
}: {
  share: ShareDto;
  busy: boolean;
  onRevoke: (id: string) => void;
}) {
  const status = STATUS[share.status];
  const created = formatDateTime(share.createdAt);
  return (
    <li
      className={`${styles['share-item']} ${styles[`share-item--${share.status}`] ?? ''}`}
      data-testid="share-row"
      data-status={share.status}
      id={`share-${share.id}`}
      tabIndex={-1}
    >
      <div className={styles['share-item__head']}>
        <Badge tone={status.tone} testId="share-status">
          {status.label}
        </Badge>
        <span className={styles['share-item__created']}>
          Created {created} by {share.createdBy}
        </span>
      </div>
      <dl className={`${styles['share-item__facts']} small`}>
        {share.status === 'revoked' && share.revokedAt ? (
          <div>
            <dt>Revoked</dt>
            <dd data-testid="share-revoked">
              {formatDateTime(share.revokedAt)}
              {share.revokedBy ? ` by ${share.revokedBy}` : ''}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{share.status === 'expired' ? 'Expired' : 'Expires'}</dt>
          <dd>{share.expiresAt ? formatDateTime(share.expiresAt) : 'never'}</dd>
        </div>
        <div>
          <dt>Last opened</dt>
          <dd>{share.lastViewedAt ? formatDateTime(share.lastViewedAt) : 'not yet'}</dd>
        </div>
      </dl>
      {share.status === 'active' ? (
        <div className={styles['share-item__actions']}>
          <ConfirmButton
            title="Revoke this share link?"
            message={`The link created ${created} by ${share.createdBy} stops opening the report at once, for everyone who has it. This cannot be undone; create a new link to share again.`}
            confirmLabel="Revoke link"
            busy={busy}
            disabled={busy}
            testId="share-revoke"
            onConfirm={() => onRevoke(share.id)}
          >
            Revoke<span className="visually-hidden"> the link created {created}</span>
          </ConfirmButton>
        </div>
      ) : null}
    </li>
  );
}

export function SharePanel({ auditId }: { auditId: string }) {
  const shares = useShares(auditId);
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [revokedId, setRevokedId] = useState<string | null>(null);
  const create = useCreateShare(auditId);
  const revoke = useRevokeShare(auditId);
  const createShare = () =>
    create.mutate(
      { expiresAt: days ? new Date(Date.now() + Number(days) * 86_400_000).toISOString() : null },
      { onSuccess: (share) => setCreated(share.url) },
    );
  const items = shares.data ?? [];
  const active = items.filter((s) => s.status === 'active').length;
  // The Revoke button goes away with the link's change of state: focus its row, not the page's top.
  useEffect(() => {
    if (!revokedId) return;
    const row = document.getElementById(`share-${revokedId}`);
    if (row?.dataset.status === 'revoked') {
      row.focus();
      setRevokedId(null);
    }
  });

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
        <div className={styles['share-create']}>
          <label htmlFor="share-expiry" className="field__label field__label--small">
            Link expiry
          </label>
          <select
            id="share-expiry"
            className={`select select--small ${styles['share-create__select']}`}
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
        {created ? <CreatedLink key={created} url={created} /> : null}
        {shares.isError ? (
          <Alert>
            The audit's links could not be listed: {shares.error.message}{' '}
            <button type="button" className="button button--small" onClick={() => void shares.refetch()}>
              Try again
            </button>
          </Alert>
        ) : null}
        {items.length > 0 ? (
          <div className="stack">
            <h3 className={styles['share-list__title']}>
              Links{' '}
              <span className="muted small">
                ({active} active of {items.length})
              </span>
            </h3>
            <ul className={styles['share-list']} data-testid="share-list">
              {items.map((s) => (
                <ShareItem
                  key={s.id}
                  share={s}
                  busy={revoke.isPending}
                  onRevoke={(id) => revoke.mutate(id, { onSuccess: () => setRevokedId(id) })}
                />
              ))}
            </ul>
          </div>
        ) : null}
        {revoke.isError ? <Alert>{revoke.error.message}</Alert> : null}
      </div>
    </section>
  );
}
