// Webhook delivery. The rows are the queue: a pending delivery whose next_attempt_at has come is due. The
// worker's dispatcher claims due deliveries, at most one per webhook (a lease on the webhook row, so a
// receiver that never answers holds only its own webhook's slot) and WEBHOOK_CONCURRENCY in all, and runs
// them concurrently. One attempt POSTs the stored body, signed with the attempt's time, through the safe
// HTTP client; a 2xx delivers it, anything else is logged in attempt_log and the next attempt is due after
// a growing delay, until the last one fails the delivery. The row's attempt count fences an attempt: one
// made twice, or for a delivery already settled, records nothing. Consecutive failed attempts pause the
// webhook (its deliveries are then held until someone resumes it).
import 'server-only';
import { pool } from '@/lib/db/client';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import { atRestKey, open } from '@/lib/security/sealed';
import { sealLegacySecrets, secretContext } from '@/lib/sites/webhooks/mutations';
import { deliveryConcurrency, deliveryTimeoutMs, pauseAfterFailures } from '@/lib/sites/webhooks/settings';
import { webhookSignature } from '@/lib/sites/webhooks/signature';

/** Delays before attempts 2…6, in units of WEBHOOK_RETRY_BASE_SECONDS (30 s: 30 s, 2 min, 10 min, 30 min,
 * 2 h; the last attempt comes about 2 h 42 min after the first). */
const RETRY_STEPS = [1, 4, 20, 60, 240];
export const MAX_DELIVERY_ATTEMPTS = RETRY_STEPS.length + 1;
/** Of the receiver's answer only its status matters; a little of its body is read so the socket closes. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** A claim outlives its attempt's timeout by this much; a worker that died frees its webhooks then. */
const LEASE_MARGIN_SECONDS = 30;

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

export interface DeliveryClaim {
  webhookId: number;
  deliveryId: string;
  attempt: number;
}

/**
 * Claims up to `limit` due deliveries, the one due longest of each webhook that is active and has no
 * attempt in flight, and leases those webhooks to the caller (FOR UPDATE SKIP LOCKED and the lease's own
 * test make two workers claim different webhooks). `only`: just these webhooks.
 */
export async function claimDeliveries(limit: number, only?: readonly number[]): Promise<DeliveryClaim[]> {
  if (limit <= 0) return [];
  const leaseSeconds = Math.ceil(deliveryTimeoutMs() / 1000) + LEASE_MARGIN_SECONDS;
  const { rows } = await pool().query<{ webhook_id: number; delivery_id: string; attempts: number }>(
    `WITH due AS (
       SELECT w.id AS webhook_id, d.id AS delivery_id, d.attempts, d.next_attempt_at
         FROM site_webhooks w
         CROSS JOIN LATERAL (
           SELECT d.id, d.attempts, d.next_attempt_at FROM webhook_deliveries d
            WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= now()
            ORDER BY d.next_attempt_at, d.id LIMIT 1) d
        WHERE w.paused_at IS NULL AND (w.busy_until IS NULL OR w.busy_until < now())
          AND ($3::int[] IS NULL OR w.id = ANY($3::int[]))
        ORDER BY d.next_attempt_at, d.id
        LIMIT $1
        FOR UPDATE OF w SKIP LOCKED)
     UPDATE site_webhooks w SET busy_delivery_id = due.delivery_id,
            busy_until = now() + make_interval(secs => $2)
       FROM due
      WHERE w.id = due.webhook_id AND (w.busy_until IS NULL OR w.busy_until < now())
     RETURNING w.id AS webhook_id, due.delivery_id::text AS delivery_id, due.attempts`,
    [limit, leaseSeconds, only ? [...only] : null],
  );
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    deliveryId: row.delivery_id,
    attempt: row.attempts + 1,
  }));
}

async function releaseClaim(claim: DeliveryClaim): Promise<void> {
  await pool().query(
    `UPDATE site_webhooks SET busy_delivery_id = NULL, busy_until = NULL
      WHERE id = $1 AND busy_delivery_id = $2::bigint`,
    [claim.webhookId, claim.deliveryId],
  );
}

export interface DeliveryDispatcher {
  /** Look for due deliveries now (a delivery was made, a webhook resumed) instead of at the next poll. */
  kick(): void;
  /** Resolves when nothing is in flight or being claimed. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface DispatcherOptions {
  /** Attempts in flight at once (default WEBHOOK_CONCURRENCY). */
  concurrency?: number;
  /** How often due deliveries are looked for without a kick (retries come due this way). */
  pollMs?: number;
  /** Only these webhooks (tests: the suite's database is shared by every test file). */
  only?: readonly number[];
  log?: (message: string) => void;
  onAttempt?: (claim: DeliveryClaim, outcome: AttemptOutcome) => void;
}

/** Starts claiming and running due deliveries until stopped. */
export function startDeliveryDispatcher(options: DispatcherOptions = {}): DeliveryDispatcher {
  const concurrency = options.concurrency ?? deliveryConcurrency();
  const log = options.log ?? console.log;
  const inFlight = new Set<Promise<void>>();
  let claiming: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let waiters: (() => void)[] = [];

  const settleIdle = () => {
    if (inFlight.size > 0 || claiming) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };

  const run = (claim: DeliveryClaim) => {
    const task = (async () => {
      try {
        const outcome = await attemptDelivery(claim.deliveryId, claim.attempt);
        if (outcome.paused) {
          log(`webhook ${claim.webhookId} paused: ${pauseAfterFailures()} consecutive failed attempts`);
        }
        options.onAttempt?.(claim, outcome);
      } catch (error) {
        log(`webhook ${claim.webhookId}: delivery ${claim.deliveryId} failed: ${(error as Error).message}`);
      } finally {
        await releaseClaim(claim).catch((error: Error) =>
          log(`webhook ${claim.webhookId}: could not release its lease (${error.message}); it expires`),
        );
      }
    })();
    inFlight.add(task);
    void task.finally(() => {
      inFlight.delete(task);
      // That webhook may have more due, and a slot is free.
      kick();
      settleIdle();
    });
  };

  const fill = async () => {
    do {
      again = false;
      if (stopped) return;
      const free = concurrency - inFlight.size;
      if (free <= 0) return;
      let claims: DeliveryClaim[] = [];
      try {
        claims = await claimDeliveries(free, options.only);
      } catch (error) {
        log(`could not claim webhook deliveries: ${(error as Error).message}`);
        return;
      }
      for (const claim of claims) run(claim);
      if (claims.length === free) again = true;
    } while (again);
  };

  function kick(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = fill().finally(() => {
      claiming = null;
      // A kick that came while the last claim was being made.
      if (again && !stopped) kick();
      else settleIdle();
    });
  }

  const timer = setInterval(kick, options.pollMs ?? 1000);
  timer.unref?.();
  kick();
  return {
    kick,
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleIdle();
      }),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await claiming;
      await Promise.allSettled([...inFlight]);
    },
  };
}
