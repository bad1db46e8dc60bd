// What one spot-check run may cost, and how many runs a user and a worker may have going: read from the
// environment when a run starts (the run keeps its budget) or when the worker starts.
import { intEnv } from '@/lib/db/config';
import type { SpotCheckBudget } from './schema';

/**
 * The budget a new run gets. 30 minutes and 15,000 requests let a healthy 5,000-row run on one host
 * finish (2 requests at a time, a redirect or two per row) while bounding a hostile or dying one; 3 refusals
 * in a row give a host up, as does a Retry-After over 30 s (the wait a single check already stops at).
 */
export function spotCheckBudget(): SpotCheckBudget {
  return {
    timeSeconds: Math.max(1, intEnv('SPOT_CHECK_TIME_BUDGET_SECONDS', 1_800)),
    requests: Math.max(1, intEnv('SPOT_CHECK_REQUEST_BUDGET', 15_000)),
    hostRefusals: Math.max(1, intEnv('SPOT_CHECK_HOST_REFUSALS', 3)),
    maxRetryAfterSeconds: intEnv('SPOT_CHECK_MAX_RETRY_AFTER_SECONDS', 30),
  };
}

/** Queued or running spot-checks one user may have at once (SPOT_CHECK_MAX_ACTIVE_PER_USER, default 3). */
export function maxActiveRunsPerUser(): number {
  return Math.max(1, intEnv('SPOT_CHECK_MAX_ACTIVE_PER_USER', 3));
}

/** Spot-check runs one worker process checks at the same time (SPOT_CHECK_RUNS_AT_ONCE, default 4), so a
 * small run never waits for a slow one to end; per-host limits hold across them (politeness.ts). */
export function spotCheckRunsAtOnce(): number {
  return Math.max(1, intEnv('SPOT_CHECK_RUNS_AT_ONCE', 4));
}

/** Seconds a refused start is told to wait (Retry-After): runs end within their budget, most much sooner. */
export const ACTIVE_LIMIT_RETRY_AFTER = 60;
