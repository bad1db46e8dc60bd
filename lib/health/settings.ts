// How often workers beat and when the health check stops believing a worker is alive. Web and worker
// read the same variable (npm start passes one environment to both).
import { intEnv } from '@/lib/db/config';

/** Seconds between a worker's heartbeats (WORKER_HEARTBEAT_SECONDS, default 5, at least 1). */
export function heartbeatSeconds(): number {
  return Math.max(1, intEnv('WORKER_HEARTBEAT_SECONDS', 5));
}

/** A worker whose last beat is older than this missed three in a row: not counted as live. */
export function liveWithinSeconds(): number {
  return heartbeatSeconds() * 3;
}

/** How long the health check waits for the database before calling it unreachable. */
export const DATABASE_TIMEOUT_MS = 2_000;
