// Writes of a site's webhooks and of the deliveries a finished run makes (the delivery job's own writes
// are in lib/jobs/webhook-delivery.ts).
import 'server-only';
import { pool } from '@/lib/db/client';
import type { WebhookDto } from '../schema';
import { LAST_DELIVERY_JOIN, toWebhookDto, WEBHOOK_COLUMNS } from './data';

export async function insertWebhook(
  siteId: string,
  url: string,
  secret: string,
  createdBy: string,
): Promise<WebhookDto> {
  const { rows } = await pool().query(
    `WITH w AS (INSERT INTO site_webhooks (site_id, url, secret, created_by) VALUES ($1, $2, $3, $4)
                RETURNING id, site_id, url, created_by, created_at)
     SELECT ${WEBHOOK_COLUMNS} FROM w ${LAST_DELIVERY_JOIN}`,
    [siteId, url, secret, createdBy],
  );
  return toWebhookDto(rows[0]);
}

/** Removes the webhook and its delivery log; a delivery job still queued for it then finds nothing. */
export async function deleteWebhook(siteId: string, id: number): Promise<boolean> {
  const { rowCount } = await pool().query('DELETE FROM site_webhooks WHERE site_id = $1 AND id = $2', [
    siteId,
    id,
  ]);
  return rowCount === 1;
}

/** One pending delivery of `body` per webhook of the site for the audit's event; the ids of those made now
 * (a webhook that already has one for this audit and event gets none: a run announced twice sends once). */
export async function insertDeliveries(
  siteId: string,
  auditId: string,
  event: string,
  body: string,
): Promise<string[]> {
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO webhook_deliveries (webhook_id, audit_id, event, body, next_attempt_at)
     SELECT w.id, $2, $3, $4, now() FROM site_webhooks w WHERE w.site_id = $1
     ON CONFLICT (webhook_id, audit_id, event) DO NOTHING
     RETURNING id::text`,
    [siteId, auditId, event, body],
  );
  return rows.map((row) => row.id);
}
