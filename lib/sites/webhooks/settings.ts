// The budgets of webhook delivery, read from the environment (docs/security.md lists them). A value that
// makes no sense stops the worker at its start (lib/worker/worker.ts reads them all once there).

function positiveInt(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

/** Attempts in flight at once in one worker process, across webhooks (WEBHOOK_CONCURRENCY). */
export function deliveryConcurrency(): number {
  return positiveInt('WEBHOOK_CONCURRENCY', 8, 256);
}

/** Attempts in flight at once per webhook: one, so a receiver that never answers holds only its own slot. */
export const PER_WEBHOOK_IN_FLIGHT = 1;

/** How long an attempt may take, connection to last byte of the answer (WEBHOOK_TIMEOUT_SECONDS). */
export function deliveryTimeoutMs(): number {
  return positiveInt('WEBHOOK_TIMEOUT_SECONDS', 10, 120) * 1000;
}

/** Consecutive failed attempts (across deliveries) after which a webhook is paused
 * (WEBHOOK_PAUSE_AFTER_FAILURES); one 2xx resets the count. */
export function pauseAfterFailures(): number {
  return positiveInt('WEBHOOK_PAUSE_AFTER_FAILURES', 10, 1000);
}

/** Pending deliveries kept per webhook (WEBHOOK_MAX_PENDING); a newer one drops the oldest over it. */
export function maxPendingDeliveries(): number {
  return positiveInt('WEBHOOK_MAX_PENDING', 50, 10_000);
}

export function readDeliverySettings(): void {
  deliveryConcurrency();
  deliveryTimeoutMs();
  pauseAfterFailures();
  maxPendingDeliveries();
}
