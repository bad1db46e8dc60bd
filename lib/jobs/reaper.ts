// Finds audits whose worker stopped sending heartbeats (killed, crashed, machine lost) and either
// queues a fresh attempt or, after MAX_ATTEMPTS, marks the audit failed with a reason.
import { pool } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import { enqueue, type QueueName } from './queue';

export const MAX_ATTEMPTS = 3;

export function staleAfterSeconds(): number {
  return intEnv('JOB_STALE_SECONDS', 60);
}

interface Reaped {
  id: string;
  attempt: number;
  status: 'queued' | 'failed';
  /** The job to run again: the phase the audit was in tells which. */
  queue: QueueName;
}

export async function reapStaleAudits(): Promise<Reaped[]> {
  const { rows } = await pool().query<Reaped>(
    `WITH stale AS (
       SELECT id, phase AS old_phase FROM audits
        WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1)
        FOR UPDATE SKIP LOCKED)
     UPDATE audits a SET
       status = CASE WHEN a.attempt < $2 THEN 'queued'::"AuditStatus" ELSE 'failed'::"AuditStatus" END,
       phase = CASE WHEN a.attempt < $2 THEN 'queued (retrying after the worker stopped responding)' ELSE 'failed' END,
       attempt = CASE WHEN a.attempt < $2 THEN a.attempt + 1 ELSE a.attempt END,
       finished_at = CASE WHEN a.attempt < $2 THEN NULL ELSE now() END,
       error_message = CASE WHEN a.attempt < $2 THEN NULL
         ELSE 'The worker processing this audit stopped responding ' || a.attempt || ' times; it was given up' END
     FROM stale WHERE a.id = stale.id
     RETURNING a.id, a.attempt, a.status,
       CASE WHEN stale.old_phase ILIKE '%reconcil%' THEN 'reconcile' ELSE 'ingest' END AS queue`,
    [staleAfterSeconds(), MAX_ATTEMPTS],
  );
  for (const row of rows) {
    if (row.status === 'queued') await enqueue(row.queue, { auditId: row.id, attempt: row.attempt });
  }
  return rows;
}
