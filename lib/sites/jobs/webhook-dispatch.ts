// The worker's webhook dispatcher. The rows are the queue: a pending delivery whose next_attempt_at has come
// is due. It claims due deliveries, at most one per webhook (a lease on the webhook's row, so a receiver
// that never answers holds only its own webhook's slot) and WEBHOOK_CONCURRENCY in all, runs them
// concurrently (lib/sites/jobs/webhook-delivery.ts makes each attempt), and frees each webhook when its attempt
// ends. Paused webhooks are never claimed.
import 'server-only';
import { pool } from '@/lib/db/client';
import { deliveryConcurrency, deliveryTimeoutMs, pauseAfterFailures } from '@/lib/sites/webhooks/settings';
import { type AttemptOutcome, attemptDelivery } from './webhook-delivery';

/** A claim outlives its attempt's timeout by this much; a worker that died frees its webhooks then. */
const LEASE_MARGIN_SECONDS = 30;

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
