// The reads behind /api/health: one round trip to time the database, queue depth from pg-boss's table,
// and the workers' heartbeat rows. Each is bounded so the endpoint answers quickly whatever the state.
import 'server-only';
import { pool } from '@/lib/db/client';
import { QUEUES } from '@/lib/queue/queue';
import { DATABASE_TIMEOUT_MS } from './settings';
import type { QueueDepth, WorkerBeat } from './types';

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Milliseconds for `SELECT 1`, or why it failed: the error's own text may name hosts and users, so it
 * is reduced to one of two words. */
export async function pingDatabase(): Promise<{ latencyMs: number } | { error: 'timeout' | 'unreachable' }> {
  const started = performance.now();
  try {
    await withTimeout(pool().query('SELECT 1'), DATABASE_TIMEOUT_MS);
    return { latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (error) {
    return { error: (error as Error).message === 'timeout' ? 'timeout' : 'unreachable' };
  }
}

/** Jobs waiting (created or retrying) and running per queue; null when pg-boss has not created its
 * tables yet (no worker has ever started) or the read failed. */
export async function queueDepths(): Promise<QueueDepth[] | null> {
  try {
    const { rows } = await withTimeout(
      pool().query<{ name: string; queued: number; active: number }>(
        `SELECT name,
                count(*) FILTER (WHERE state < 'active')::int AS queued,
                count(*) FILTER (WHERE state = 'active')::int AS active
           FROM pgboss.job WHERE state <= 'active' AND name = ANY($1) GROUP BY name`,
        [QUEUES],
      ),
      DATABASE_TIMEOUT_MS,
    );
    return QUEUES.map((name) => {
      const row = rows.find((r) => r.name === name);
      return { name, queued: row?.queued ?? 0, active: row?.active ?? 0 };
    });
  } catch {
    return null;
  }
}

/** Every heartbeat row, newest first, with its age by the database's clock (workers and web may run on
 * machines whose clocks differ). */
export async function workerBeats(): Promise<WorkerBeat[] | null> {
  try {
    const { rows } = await withTimeout(
      pool().query<{
        id: string;
        host: string;
        pid: number;
        concurrency: number;
        runs_taken: number;
        started_at: Date;
        beat_at: Date;
        age: number;
      }>(
        `SELECT id, host, pid, concurrency, runs_taken, started_at, beat_at,
                extract(epoch FROM now() - beat_at)::float8 AS age
           FROM worker_heartbeats ORDER BY beat_at DESC LIMIT 50`,
      ),
      DATABASE_TIMEOUT_MS,
    );
    return rows.map((r) => ({
      id: r.id,
      host: r.host,
      pid: r.pid,
      concurrency: r.concurrency,
      runsTaken: r.runs_taken,
      startedAt: r.started_at.toISOString(),
      lastBeatAt: r.beat_at.toISOString(),
      ageSeconds: Math.max(0, Math.round(r.age * 10) / 10),
    }));
  } catch {
    return null;
  }
}
