'use client';
// The site's webhooks (admins): each URL with its state (paused after repeated failures: why, since when,
// and a button to resume), its last delivery and, on demand, its delivery log a page at a time (status,
// attempts, the receiver's response status, the error); a form adds a URL and its signing secret, which is
// never shown again.
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { useDateTimeFormat } from '@/components/ui/date-time';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useResumeWebhook,
  useWebhooks,
} from '@/lib/sites/hooks';
import type { DeliveryStatus, WebhookDto } from '@/lib/sites/schema';
import table from '../../../_components/site-table.module.css';
import list from '../item-list.module.css';
import { deliveryBadge } from './delivery-words';

/** A pending delivery of a paused webhook is not retrying: it is held until the webhook is resumed. */
function DeliveryBadge({ status, paused }: { status: DeliveryStatus; paused: boolean }) {
  const { tone, label } = deliveryBadge(status, paused);
  return <Badge tone={tone}>{label}</Badge>;
}

function WebhookForm({ siteId }: { siteId: string }) {
  const create = useCreateWebhook(siteId);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const ids = { url: useId(), secret: useId(), hint: useId(), error: useId() };
  return (
    <form
      className={list.form}
      aria-label="New webhook"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate(
          { url, secret },
          {
            onSuccess: () => {
              setUrl('');
              setSecret('');
            },
          },
        );
      }}
    >
      <Field
        label="URL"
        id={ids.url}
        size="small"
        className={list.wide}
        describedBy={create.isError ? ids.error : undefined}
      >
        {(control) => (
          <input
            {...control}
            type="url"
            className="input input--small"
            value={url}
            required
            placeholder="https://hooks.example.com/sitemap-audit"
            autoComplete="off"
            aria-invalid={create.isError || undefined}
            onChange={(event) => setUrl(event.target.value)}
          />
        )}
      </Field>
      <Field label="Secret (16+ characters)" id={ids.secret} size="small" describedBy={ids.hint}>
        {(control) => (
          <input
            {...control}
            type="password"
            className="input input--small"
            value={secret}
            required
            minLength={16}
            autoComplete="new-password"
            onChange={(event) => setSecret(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button button--primary button--small" disabled={create.isPending}>
        {create.isPending ? 'Adding…' : 'Add webhook'}
      </button>
      <p id={ids.hint} className={`muted small ${list.note}`}>
        Each delivery is signed: X-Sitemap-Audit-Signature is t=(unix time),v1=(HMAC-SHA256 with this secret
        of the time, a dot and the body); refuse one signed more than 5 minutes ago. It is not shown again.
      </p>
      {create.isError ? (
        <p id={ids.error} className={`field__error ${list.note}`} role="alert">
          Not added: {create.error.message}
        </p>
      ) : null}
    </form>
  );
}

function DeliveryLog({ siteId, webhook }: { siteId: string; webhook: WebhookDto }) {
  const deliveries = useDeliveries(siteId, webhook.id);
  const formatTime = useDateTimeFormat();
  if (deliveries.isError) return <Alert title="Could not load deliveries">{deliveries.error.message}</Alert>;
  if (deliveries.isPending) return <div className="skeleton" aria-hidden="true" />;
  if (deliveries.data.length === 0)
    return <p className="muted small">No delivery yet: one is sent when a run ends.</p>;
  return (
    <div className="table-wrap">
      <table className={`table ${table.cards}`} data-testid="deliveries">
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Sent</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Response</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((delivery) => (
            <tr key={delivery.id} data-testid="delivery">
              <td className="table__name">{formatTime(delivery.createdAt)}</td>
              <td data-label="Status">
                <DeliveryBadge status={delivery.status} paused={webhook.state === 'paused'} />
                {delivery.status === 'pending' && webhook.state !== 'paused' && delivery.nextAttemptAt ? (
                  <span className="muted small"> next {formatTime(delivery.nextAttemptAt)}</span>
                ) : null}
              </td>
              <td data-label="Attempts" className="num">
                {delivery.attempts}
              </td>
              <td data-label="Response">
                {delivery.responseStatus === null ? '—' : `HTTP ${delivery.responseStatus}`}
              </td>
              <td data-label="Error" className={table.wrap}>
                {delivery.error ?? '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deliveries.hasNextPage ? (
        <button
          type="button"
          className="button button--small"
          disabled={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          {deliveries.isFetchingNextPage ? 'Loading…' : 'Show older deliveries'}
        </button>
      ) : null}
    </div>
  );
}

function PausedNotice({ webhook }: { webhook: WebhookDto }) {
  const formatTime = useDateTimeFormat();
  if (webhook.state !== 'paused') return null;
  return (
    <p className={`small ${table.wrap}`} data-testid="webhook-paused">
      <Badge tone="danger">Paused</Badge> since {webhook.pausedAt ? formatTime(webhook.pausedAt) : '—'}:{' '}
      {webhook.pausedReason ?? 'repeated failures'}. New runs are recorded but not sent
      {webhook.pendingDeliveries > 0 ? ` (${webhook.pendingDeliveries} held)` : ''}; Resume sends them.
    </p>
  );
}

function WebhookRow({ webhook, siteId }: { webhook: WebhookDto; siteId: string }) {
  const [showLog, setShowLog] = useState(false);
  const remove = useDeleteWebhook(siteId);
  const resume = useResumeWebhook(siteId);
  const formatTime = useDateTimeFormat();
  const logId = useId();
  return (
    <li className={list.item} data-testid="webhook" data-id={webhook.id}>
      <div className={list.head}>
        <strong className={table.wrap}>{webhook.url}</strong>
        {webhook.lastDelivery ? (
          <span className="small">
            <DeliveryBadge status={webhook.lastDelivery.status} paused={webhook.state === 'paused'} />{' '}
            {formatTime(webhook.lastDelivery.at)}
          </span>
        ) : (
          <span className="muted small">Nothing sent yet</span>
        )}
      </div>
      <PausedNotice webhook={webhook} />
      <div className={list.actions}>
        {webhook.state === 'paused' ? (
          <button
            type="button"
            className="button button--small button--primary"
            disabled={resume.isPending}
            onClick={() => resume.mutate(webhook.id)}
          >
            {resume.isPending ? 'Resuming…' : 'Resume'}
          </button>
        ) : null}
        <button
          type="button"
          className="button button--small"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((was) => !was)}
        >
          {showLog ? 'Hide deliveries' : 'Show deliveries'}
        </button>
        <ConfirmButton
          title="Delete this webhook?"
          message={
            <>
              Runs of this site stop notifying <strong>{webhook.url}</strong>. Its delivery log goes too.
            </>
          }
          confirmLabel="Delete webhook"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(webhook.id)}
        >
          Delete
        </ConfirmButton>
        {remove.isError ? (
          <span className="field__error" role="alert">
            {remove.error.message}
          </span>
        ) : null}
        {resume.isError ? (
          <span className="field__error" role="alert">
            Not resumed: {resume.error.message}
          </span>
        ) : null}
      </div>
      <div id={logId} hidden={!showLog}>
        {showLog ? <DeliveryLog siteId={siteId} webhook={webhook} /> : null}
      </div>
    </li>
  );
}

export function SiteWebhooks({ siteId }: { siteId: string }) {
  const webhooks = useWebhooks(siteId);
  const items = webhooks.data ?? [];
  return (
    <section className="card" aria-labelledby="site-webhooks-title">
      <div className="card__header">
        <h2 id="site-webhooks-title">Webhooks</h2>
        <span className="muted small">A signed JSON summary is POSTed when a run ends (run.completed)</span>
      </div>
      <div className="card__body stack">
        {webhooks.isError && !webhooks.data ? (
          <Alert title="Could not load the webhooks">{webhooks.error.message}</Alert>
        ) : webhooks.isPending ? (
          <div className="skeleton" style={{ height: '4rem' }} aria-hidden="true" />
        ) : items.length === 0 ? (
          <EmptyState title="No webhook">Add a URL below to be told when a run ends.</EmptyState>
        ) : (
          <ul className={list.list} data-testid="webhooks">
            {items.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} siteId={siteId} />
            ))}
          </ul>
        )}
        <WebhookForm siteId={siteId} />
      </div>
    </section>
  );
}
