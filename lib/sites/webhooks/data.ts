// Reads of a site's webhooks (their state: active or paused, and why), their delivery logs, and the facts a
// finished run's announcement carries. Never the secret, except for the delivery job
// (lib/sites/jobs/webhook-delivery.ts reads it itself).
import 'server-only';
import type { AuditStatus } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import {
  CHANGE_TYPES,
  type ChangeCounts,
  type DeliveryDto,
  type DeliveryPage,
  type DeliveryStatus,
  type RunCompletedPayload,
  type RunTrigger,
  type WebhookDto,
} from '../schema';

interface WebhookRow {
  id: number;
  site_id: string;
  url: string;
  created_by: string;
  created_at: Date;
  paused_at: Date | null;
  paused_reason: string | null;
  consecutive_failures: number;
  pending: number;
  last_status: DeliveryStatus | null;
  last_at: Date | null;
}

export const WEBHOOK_COLUMNS = `w.id, w.site_id, w.url, w.created_by, w.created_at, w.paused_at, w.paused_reason,
  w.consecutive_failures,
  (SELECT count(*)::int FROM webhook_deliveries p WHERE p.webhook_id = w.id AND p.status = 'pending') AS pending,
  ld.status AS last_status, ld.at AS last_at`;
/** The newest delivery and when it last moved: delivered, else its last attempt, else made. */
export const LAST_DELIVERY_JOIN = `
  LEFT JOIN LATERAL (SELECT d.status,
                            COALESCE(d.delivered_at, (d.attempt_log -> -1 ->> 'at')::timestamptz, d.created_at) AS at
                       FROM webhook_deliveries d
                      WHERE d.webhook_id = w.id ORDER BY d.id DESC LIMIT 1) ld ON true`;

export function toWebhookDto(row: WebhookRow): WebhookDto {
  return {
    id: row.id,
    siteId: row.site_id,
    url: row.url,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    state: row.paused_at ? 'paused' : 'active',
    pausedAt: row.paused_at?.toISOString() ?? null,
    pausedReason: row.paused_reason,
    consecutiveFailures: row.consecutive_failures,
    pendingDeliveries: row.pending,
    lastDelivery:
      row.last_status && row.last_at ? { status: row.last_status, at: row.last_at.toISOString() } : null,
  };
}

export async function listWebhooks(siteId: string): Promise<WebhookDto[]> {
  const { rows } = await pool().query<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM site_webhooks w ${LAST_DELIVERY_JOIN} WHERE w.site_id = $1 ORDER BY w.id`,
    [siteId],
  );
  return rows.map(toWebhookDto);
}

export async function webhookExists(siteId: string, id: number): Promise<boolean> {
  const { rows } = await pool().query('SELECT 1 FROM site_webhooks WHERE site_id = $1 AND id = $2', [
    siteId,
    id,
  ]);
  return rows.length > 0;
}

interface DeliveryRow {
  id: string;
  audit_id: string | null;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  next_attempt_at: Date | null;
  attempt_log: DeliveryDto['attemptLog'];
}

/** A webhook's deliveries, newest first by number, `limit` at a time (cursor: the last delivery id of a
 * page). Sorted by the bigint column, not by the text it is sent as: `ORDER BY id` would name the
 * select list's `id::text`, and as text 13 sorts before 7. */
export async function listDeliveries(
  webhookId: number,
  query: { limit: number; cursor?: string },
): Promise<DeliveryPage> {
  const params: unknown[] = [webhookId, query.limit + 1];
  if (query.cursor) params.push(query.cursor);
  const { rows } = await pool().query<DeliveryRow>(
    `SELECT d.id::text, d.audit_id, d.event, d.status, d.attempts, d.response_status, d.error, d.created_at,
            d.delivered_at, d.next_attempt_at, d.attempt_log
       FROM webhook_deliveries d WHERE d.webhook_id = $1 ${query.cursor ? 'AND d.id < $3::bigint' : ''}
      ORDER BY d.id DESC LIMIT $2`,
    params,
  );
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((row) => ({
      id: row.id,
      auditId: row.audit_id,
      event: row.event,
      status: row.status,
      attempts: row.attempts,
      responseStatus: row.response_status,
      error: row.error,
      createdAt: row.created_at.toISOString(),
      deliveredAt: row.delivered_at?.toISOString() ?? null,
      nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
      attemptLog: row.attempt_log,
    })),
    nextCursor: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

interface FinishedRunRow {
  site_id: string;
  host: string;
  site_name: string;
  id: string;
  name: string;
  status: AuditStatus;
  trigger: RunTrigger;
  created_at: Date;
  finished_at: Date | null;
  declared: number;
  reused_files: number;
  reconciled: boolean;
  prune: number;
  add: number;
  held: number;
}

/** What `run.completed` says of a finished audit of a site (without `sentAt` and the link's origin); null
 * when the audit is not finished, or belongs to no site, or has no webhook to tell. */
export async function finishedRunFacts(auditId: string): Promise<Omit<RunCompletedPayload, 'sentAt'> | null> {
  const { rows } = await pool().query<FinishedRunRow>(
    `SELECT s.id AS site_id, s.host, s.name AS site_name, a.id, a.name, a.status::text AS status, a.trigger,
            a.created_at, a.finished_at, a.sitemap_unique_urls AS declared, a.reused_files,
            a.reconciled_at IS NOT NULL AS reconciled,
            COALESCE((SELECT sum(n) FILTER (WHERE list = 'prune') FROM finding_counts c WHERE c.audit_id = a.id), 0)::int AS prune,
            COALESCE((SELECT sum(n) FILTER (WHERE list = 'add') FROM finding_counts c WHERE c.audit_id = a.id), 0)::int AS add,
            COALESCE((SELECT sum(n) FILTER (WHERE list = 'held') FROM finding_counts c WHERE c.audit_id = a.id), 0)::int AS held
       FROM audits a JOIN sites s ON s.id = a.site_id
      WHERE a.id = $1 AND a.status IN ('succeeded', 'partial', 'failed', 'cancelled')
        AND EXISTS (SELECT 1 FROM site_webhooks w WHERE w.site_id = s.id)`,
    [auditId],
  );
  const run = rows[0];
  if (!run) return null;
  const changes = await pool().query<{ type: keyof ChangeCounts; n: number }>(
    'SELECT type, count(*)::int AS n FROM site_changes WHERE audit_id = $1 GROUP BY type',
    [auditId],
  );
  const counts = Object.fromEntries(CHANGE_TYPES.map((type) => [type, 0])) as ChangeCounts;
  for (const row of changes.rows) counts[row.type] = row.n;
  return {
    event: 'run.completed',
    site: { id: run.site_id, host: run.host, name: run.site_name },
    run: {
      id: run.id,
      name: run.name,
      status: run.status,
      complete: run.status === 'succeeded',
      trigger: run.trigger,
      createdAt: run.created_at.toISOString(),
      finishedAt: run.finished_at?.toISOString() ?? null,
      declaredUrls: run.declared,
      reusedFiles: run.reused_files,
      prune: run.reconciled ? run.prune : null,
      add: run.reconciled ? run.add : null,
      held: run.reconciled ? run.held : null,
      url: `/audits/${run.id}`,
    },
    changes: counts,
  };
}
