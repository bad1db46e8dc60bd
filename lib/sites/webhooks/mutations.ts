// Writes of a site's webhooks and of the deliveries a finished run makes (the delivery job's own writes
// are in lib/sites/jobs/webhook-delivery.ts). The signing secret is stored sealed (lib/security/sealed.ts) under
// the webhook's id, never in plain text.
import 'server-only';
import { pool } from '@/lib/db/client';
import { atRestKey, seal } from '@/lib/security/sealed';
import type { WebhookDto } from '../schema';
import { LAST_DELIVERY_JOIN, toWebhookDto, WEBHOOK_COLUMNS } from './data';

/** What a webhook's secret is sealed with: a sealed secret copied to another webhook does not open there. */
export function secretContext(webhookId: number): string {
  return `site_webhooks:${webhookId}`;
}

export async function insertWebhook(
  siteId: string,
  url: string,
  secret: string,
  createdBy: string,
): Promise<WebhookDto> {
  // The id is taken first: it is sealed with the secret.
  const { rows: next } = await pool().query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence('site_webhooks', 'id'))::int AS id`,
  );
  const id = next[0]?.id as number;
  const sealed = seal(secret, secretContext(id), atRestKey());
  const { rows } = await pool().query(
    `WITH w AS (INSERT INTO site_webhooks (id, site_id, url, secret_ciphertext, secret_iv, secret_auth_tag, created_by)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                RETURNING id, site_id, url, created_by, created_at, paused_at, paused_reason, consecutive_failures)
     SELECT ${WEBHOOK_COLUMNS} FROM w ${LAST_DELIVERY_JOIN}`,
    [id, siteId, url, sealed.ciphertext, sealed.iv, sealed.authTag, createdBy],
  );
  return toWebhookDto(rows[0]);
}

/** Seals the plain-text secrets of webhooks made before secrets were sealed (the migration could not: the
 * key is not in the database) and empties that column; `only` limits it to one webhook. Returns how many. */
export async function sealLegacySecrets(only?: number): Promise<number> {
  const { rows } = await pool().query<{ id: number; legacy_secret: string }>(
    `SELECT id, legacy_secret FROM site_webhooks
      WHERE legacy_secret IS NOT NULL AND ($1::int IS NULL OR id = $1)`,
    [only ?? null],
  );
  if (rows.length === 0) return 0;
  const key = atRestKey();
  let sealedCount = 0;
  for (const row of rows) {
    const sealed = seal(row.legacy_secret, secretContext(row.id), key);
    const { rowCount } = await pool().query(
      `UPDATE site_webhooks SET secret_ciphertext = $3, secret_iv = $4, secret_auth_tag = $5, legacy_secret = NULL
        WHERE id = $1 AND legacy_secret = $2`,
      [row.id, row.legacy_secret, sealed.ciphertext, sealed.iv, sealed.authTag],
    );
    sealedCount += rowCount ?? 0;
  }
  return sealedCount;
}

/** Removes the webhook and its delivery log; an attempt in flight for it then records nothing. */
export async function deleteWebhook(siteId: string, id: number): Promise<boolean> {
  const { rowCount } = await pool().query('DELETE FROM site_webhooks WHERE site_id = $1 AND id = $2', [
    siteId,
    id,
  ]);
  return rowCount === 1;
}

/** Lifts a webhook's pause: its failure count starts again and every pending delivery (held while it was
 * paused) is due now. False when there is no such webhook; resuming an active one only makes its pending
 * deliveries due. */
export async function resumeWebhook(siteId: string, id: number): Promise<boolean> {
  const { rowCount } = await pool().query(
    `UPDATE site_webhooks SET paused_at = NULL, paused_reason = NULL, consecutive_failures = 0
      WHERE site_id = $1 AND id = $2`,
    [siteId, id],
  );
  if (rowCount !== 1) return false;
  await pool().query(
    `UPDATE webhook_deliveries SET next_attempt_at = now() WHERE webhook_id = $1 AND status = 'pending'`,
    [id],
  );
  return true;
}

export interface DroppedDeliveries {
  webhookId: number;
  ids: string[];
}

/**
 * One pending delivery of `body` per webhook of the site for the audit's event (a webhook that already has
 * one for this audit and event gets none: a run announced twice sends once), paused webhooks included: they
 * hold it until resumed. Then each webhook keeps at most `maxPending` pending deliveries: the oldest over
 * that are marked `dropped`, saying why, and returned so the caller can log them.
 */
export async function insertDeliveries(
  siteId: string,
  auditId: string,
  event: string,
  body: string,
  maxPending: number,
): Promise<{ ids: string[]; dropped: DroppedDeliveries[] }> {
  const { rows } = await pool().query<{ id: string; webhook_id: number }>(
    `INSERT INTO webhook_deliveries (webhook_id, audit_id, event, body, next_attempt_at)
     SELECT w.id, $2, $3, $4, now() FROM site_webhooks w WHERE w.site_id = $1
     ON CONFLICT (webhook_id, audit_id, event) DO NOTHING
     RETURNING id::text, webhook_id`,
    [siteId, auditId, event, body],
  );
  if (rows.length === 0) return { ids: [], dropped: [] };
  const webhookIds = [...new Set(rows.map((row) => row.webhook_id))];
  const { rows: dropped } = await pool().query<{ webhook_id: number; ids: string[] }>(
    `WITH over AS (
       SELECT id FROM (
         SELECT d.id, row_number() OVER (PARTITION BY d.webhook_id ORDER BY d.id DESC) AS rank
           FROM webhook_deliveries d WHERE d.webhook_id = ANY($1::int[]) AND d.status = 'pending') p
        WHERE rank > $2),
     marked AS (
       UPDATE webhook_deliveries d SET status = 'dropped', next_attempt_at = NULL,
              error = format('Dropped unsent: more than %s deliveries were pending for this webhook (WEBHOOK_MAX_PENDING); the oldest are dropped', $2::int)
         FROM over WHERE d.id = over.id AND d.status = 'pending'
       RETURNING d.webhook_id, d.id)
     SELECT webhook_id, array_agg(id::text ORDER BY id) AS ids FROM marked GROUP BY webhook_id`,
    [webhookIds, maxPending],
  );
  return {
    ids: rows.map((row) => row.id),
    dropped: dropped.map((row) => ({ webhookId: row.webhook_id, ids: row.ids })),
  };
}
