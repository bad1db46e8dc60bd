// A worker's heartbeat row (worker_heartbeats): written every few seconds while it lives, removed when it
// stops cleanly. Rows of workers that died stay for a day so whoever looks can see when they stopped.
import 'server-only';
import { pool } from '@/lib/db/client';

export interface WorkerIdentity {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
}

/** Records that the worker is alive now; prunes rows of workers gone for more than a day. */
export async function beat(worker: WorkerIdentity): Promise<void> {
  await pool().query(
    `WITH pruned AS (DELETE FROM worker_heartbeats WHERE beat_at < now() - interval '1 day')
     INSERT INTO worker_heartbeats (id, host, pid, concurrency) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET beat_at = now()`,
    [worker.id, worker.host, worker.pid, worker.concurrency],
  );
}

export async function removeBeat(id: string): Promise<void> {
  await pool().query('DELETE FROM worker_heartbeats WHERE id = $1', [id]);
}
