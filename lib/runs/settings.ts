// Lifecycle settings shared by workers and reapers.
import { intEnv } from '@/lib/db/config';

/** Attempts a run's step gets when its worker stops responding. */
export const MAX_ATTEMPTS = 3;

/** Heartbeat age after which a claimed step is considered abandoned (JOB_STALE_SECONDS). */
export function staleAfterSeconds(): number {
  return intEnv('JOB_STALE_SECONDS', 60);
}
