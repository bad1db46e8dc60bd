// One attempt of a webhook delivery (the worker's dispatcher, lib/sites/jobs/webhook-dispatch.ts, decides which
// and when): POST the stored body, signed with the attempt's time, through the safe HTTP client. A 2xx
// delivers it; anything else is logged in attempt_log and the next attempt is due after a growing delay,
// until the last one fails the delivery. The row's attempt count fences an attempt: one made twice, or for
// a delivery already settled, records nothing. Consecutive failed attempts pause the webhook (its
// deliveries are then held until someone resumes it).
import 'server-only';
import { pool } from '@/lib/db/client';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import { atRestKey, open } from '@/lib/security/sealed';
import { sealLegacySecrets, secretContext } from '@/lib/sites/webhooks/mutations';
import { deliveryTimeoutMs, pauseAfterFailures } from '@/lib/sites/webhooks/settings';
import { webhookSignature } from '@/lib/sites/webhooks/signature';

/** Delays before attempts 2…6, in units of WEBHOOK_RETRY_BASE_SECONDS (30 s: 30 s, 2 min, 10 min, 30 min,
 * 2 h; the last attempt comes about 2 h 42 min after the first). */
const RETRY_STEPS = [1, 4, 20, 60, 240];
export const MAX_DELIVERY_ATTEMPTS = RETRY_STEPS.length + 1;
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
  webhook_id: number;
  body: string;
  event: string;
  attempts: number;
  url: string;
  legacy_secret: string | null;
  secret_ciphertext: Buffer | null;
  secret_iv: Buffer | null;
  secret_auth_tag: Buffer | null;
}

interface AttemptResult {
  status: number | null;
  error: string | null;
  ms: number;
}

function secretOf(delivery: PendingDelivery): string | null {
  if (delivery.secret_ciphertext && delivery.secret_iv && delivery.secret_auth_tag) {
    return open(
      { ciphertext: delivery.secret_ciphertext, iv: delivery.secret_iv, authTag: delivery.secret_auth_tag },
      secretContext(delivery.webhook_id),
      atRestKey(),
    );
  }
  return delivery.legacy_secret;
}

async function post(delivery: PendingDelivery, secret: string): Promise<AttemptResult> {
  const started = Date.now();
  try {
    const res = await safeFetch(delivery.url, {
      method: 'POST',
      body: delivery.body,
      // Retries are this job's, with the delivery's own backoff; a redirect is an answer, not followed.
      retries: 0,
      followRedirects: false,
      timeoutMs: deliveryTimeoutMs(),
      maxBytes: MAX_RESPONSE_BYTES,
      headers: {
        'content-type': 'application/json',
        'x-sitemap-audit-event': delivery.event,
        'x-sitemap-audit-signature': webhookSignature(secret, delivery.body),
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

export interface AttemptOutcome {
  /** False when the attempt was already made or the delivery settled (nothing sent, nothing recorded). */
  recorded: boolean;
  delivered: boolean;
  /** This attempt paused its webhook. */
  paused: boolean;
  error: string | null;
}

const NOTHING: AttemptOutcome = { recorded: false, delivered: false, paused: false, error: null };

/** Runs attempt `attempt` of a delivery, unless that attempt was already made or the delivery settled. */
export async function attemptDelivery(deliveryId: string, attempt: number): Promise<AttemptOutcome> {
  const read = () =>
    pool().query<PendingDelivery>(
      `SELECT d.id::text, d.webhook_id, d.body, d.event, d.attempts, w.url, w.legacy_secret,
              w.secret_ciphertext, w.secret_iv, w.secret_auth_tag
         FROM webhook_deliveries d JOIN site_webhooks w ON w.id = d.webhook_id
        WHERE d.id = $1::bigint AND d.status = 'pending' AND d.attempts = $2`,
      [deliveryId, attempt - 1],
    );
  let delivery = (await read()).rows[0];
  if (!delivery) return NOTHING;
  if (delivery.legacy_secret !== null) {
    // Made before secrets were sealed and the worker has not sealed it yet: seal it before using it.
    await sealLegacySecrets(delivery.webhook_id);
    delivery = (await read()).rows[0];
    if (!delivery) return NOTHING;
  }
  const secret = secretOf(delivery);
  const result: AttemptResult =
    secret === null
      ? {
          status: null,
          error:
            'The webhook secret cannot be decrypted (GSC_CREDENTIALS_KEY or DATA_DIR/gsc-credentials.key changed); delete the webhook and add it again',
          ms: 0,
        }
      : await post(delivery, secret);
  const at = new Date();
  const delivered = result.error === null;
  const last = attempt >= MAX_DELIVERY_ATTEMPTS;
  const next = delivered || last ? null : nextAttemptAt(attempt, at);
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
      deliveryId,
      attempt - 1,
      attempt,
      at.toISOString(),
      result.status,
      result.error,
      result.ms,
      delivered ? 'delivered' : last ? 'failed' : 'pending',
      next,
    ],
  );
  if (rowCount !== 1) return NOTHING;
  // Every SET expression below reads the row as it was before this update.
  const { rows } = await pool().query<{ paused_now: boolean }>(
    `UPDATE site_webhooks SET
        consecutive_failures = CASE WHEN $2 THEN 0 ELSE consecutive_failures + 1 END,
        paused_at = CASE WHEN NOT $2 AND paused_at IS NULL AND consecutive_failures + 1 >= $3 THEN $4::timestamptz
                         ELSE paused_at END,
        paused_reason = CASE WHEN NOT $2 AND paused_at IS NULL AND consecutive_failures + 1 >= $3
                             THEN format('%s consecutive failed attempt%s; the last: %s', consecutive_failures + 1,
                                         CASE WHEN consecutive_failures = 0 THEN '' ELSE 's' END, $5::text)
                             ELSE paused_reason END
      WHERE id = $1
      RETURNING (NOT $2 AND paused_at = $4::timestamptz) AS paused_now`,
    [delivery.webhook_id, delivered, pauseAfterFailures(), at.toISOString(), result.error],
  );
  return { recorded: true, delivered, paused: rows[0]?.paused_now === true, error: result.error };
}
