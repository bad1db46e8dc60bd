// One attempt of a webhook delivery (queue `webhook-delivery`): POST the stored body, signed, through the
// safe HTTP client. A 2xx delivers it; anything else is logged in attempt_log and the next attempt is
// queued with a growing delay, until the last one fails the delivery. The job carries the attempt it is
// for, and the row's attempt count fences it: a job sent twice, or for a delivery already settled, sends
// nothing.
import 'server-only';
import { pool } from '@/lib/db/client';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import { type DeliveryJob, queueDelivery } from '@/lib/sites/webhooks/service';
import { webhookSignature } from '@/lib/sites/webhooks/signature';

/** Delays before attempts 2…6, in units of WEBHOOK_RETRY_BASE_SECONDS (30 s: 30 s, 2 min, 10 min, 30 min,
 * 2 h; the last attempt comes about 2 h 42 min after the first). */
const RETRY_STEPS = [1, 4, 20, 60, 240];
export const MAX_DELIVERY_ATTEMPTS = RETRY_STEPS.length + 1;
const TIMEOUT_MS = 10_000;
/** Of the receiver's answer only its status matters; a little of its body is read so the socket closes. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export function retryBaseSeconds(): number {
  const raw = process.env.WEBHOOK_RETRY_BASE_SECONDS;
  if (raw === undefined || raw.trim() === '') return 30;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`WEBHOOK_RETRY_BASE_SECONDS must be a positive number of seconds, got "${raw}"`);
  }
  return value;
}

/** When attempt `attempt + 1` may start after attempt `attempt` failed at `now`. */
export function nextAttemptAt(attempt: number, now: Date = new Date()): Date {
  const steps = RETRY_STEPS[Math.min(attempt, RETRY_STEPS.length) - 1] ?? 1;
  return new Date(now.getTime() + steps * retryBaseSeconds() * 1000);
}

interface PendingDelivery {
  id: string;
  body: string;
  event: string;
  attempts: number;
  url: string;
  secret: string;
}

interface AttemptResult {
  status: number | null;
  error: string | null;
  ms: number;
}

async function post(delivery: PendingDelivery): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const res = await safeFetch(delivery.url, {
      method: 'POST',
      body: delivery.body,
      // Retries are this job's, with the delivery's own backoff; a redirect is an answer, not followed.
      retries: 0,
      followRedirects: false,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
      headers: {
        'content-type': 'application/json',
        'x-sitemap-audit-event': delivery.event,
        'x-sitemap-audit-signature': webhookSignature(delivery.secret, delivery.body),
        'x-sitemap-audit-delivery': delivery.id,
      },
    });
    res.body.destroy();
    const ok = res.status >= 200 && res.status < 300;
    const error = ok
      ? null
      : res.status >= 300 && res.status < 400
        ? `HTTP ${res.status}: redirects are not followed (give the webhook its final URL)`
        : `HTTP ${res.status}`;
    return { status: res.status, error, ms: Date.now() - started };
  } catch (error) {
    if (!(error instanceof NetError)) throw error;
    return { status: null, error: error.message, ms: Date.now() - started };
  }
}

/** Runs attempt `job.attempt` of a delivery, unless that attempt was already made or the delivery settled. */
export async function deliverWebhook(job: DeliveryJob): Promise<void> {
  const { rows } = await pool().query<PendingDelivery>(
    `SELECT d.id::text, d.body, d.event, d.attempts, w.url, w.secret
       FROM webhook_deliveries d JOIN site_webhooks w ON w.id = d.webhook_id
      WHERE d.id = $1::bigint AND d.status = 'pending' AND d.attempts = $2`,
    [job.deliveryId, job.attempt - 1],
  );
  const delivery = rows[0];
  if (!delivery) return;
  const result = await post(delivery);
  const at = new Date();
  const delivered = result.error === null;
  const last = job.attempt >= MAX_DELIVERY_ATTEMPTS;
  const next = delivered || last ? null : nextAttemptAt(job.attempt, at);
  const { rowCount } = await pool().query(
    `UPDATE webhook_deliveries SET
        attempts = $3,
        attempt_log = attempt_log || jsonb_build_array(jsonb_build_object(
          'at', $4::text, 'status', $5::int, 'error', $6::text, 'ms', $7::int)),
        response_status = $5, error = $6,
        status = $8, delivered_at = CASE WHEN $8 = 'delivered' THEN $4::timestamptz END,
        next_attempt_at = $9
      WHERE id = $1::bigint AND status = 'pending' AND attempts = $2`,
    [
      job.deliveryId,
      job.attempt - 1,
      job.attempt,
      at.toISOString(),
      result.status,
      result.error,
      result.ms,
      delivered ? 'delivered' : last ? 'failed' : 'pending',
      next,
    ],
  );
  if (rowCount === 1 && next)
    await queueDelivery({ deliveryId: job.deliveryId, attempt: job.attempt + 1 }, next);
}
