// Every statement that changes a run's state: claim, heartbeat, step transitions, failure, cancellation
// and reaping. Each is fenced by the run's attempt (and by its claim), so a superseded or cancelled
// worker's late write changes nothing.
import 'server-only';
import type pg from 'pg';
import { pool, transaction } from '@/lib/db/client';
import type { RunPhase, RunStatus } from './phases';
import type { ResultWrite, RunKind, RunRef, StepDef } from './types';

type AnyStep = StepDef<string, RunPhase>;

const SETTLED = `('succeeded', 'partial')`;
const ACTIVE = `('queued', 'running')`;

/** The worker process taking a step: recorded on the run (`step_workers`) and counted on its heartbeat row
 * (`worker_heartbeats.runs_taken`). Tests that run a step in their own process pass none. */
export interface StepWorker {
  id: string;
  host: string;
}

/** Takes a queued step for this worker. False when the run is gone, finished, cancelled, superseded by a
 * newer attempt, at another step, or already claimed (a job delivered twice). The claim, the run's record of
 * who took the step and the worker's count are one statement, so none is written without the others. */
export async function claimStep(
  kind: RunKind,
  step: AnyStep,
  run: RunRef,
  worker: StepWorker | null = null,
): Promise<boolean> {
  const first = kind.steps[0]?.name === step.name;
  const values: unknown[] = step.followUp
    ? [run.id, run.attempt, step.name]
    : [run.id, run.attempt, step.name, step.phase, first];
  values.push(worker?.id ?? null, worker?.host ?? null);
  const w = values.length - 1;
  const taken = `step_workers = CASE WHEN $${w}::text IS NULL THEN step_workers
         ELSE step_workers || jsonb_build_array(jsonb_build_object('step', $3::text, 'attempt', $2::int,
           'worker', $${w}::text, 'host', $${w + 1}::text, 'at', now())) END`;
  const claim = step.followUp
    ? `UPDATE ${kind.table} SET claimed_at = now(), heartbeat_at = now(), ${taken}
        WHERE id = $1 AND attempt = $2 AND step = $3 AND claimed_at IS NULL AND status IN ${SETTLED}`
    : `UPDATE ${kind.table} SET status = 'running', phase = $4, claimed_at = now(), heartbeat_at = now(),
         started_at = CASE WHEN $5 OR started_at IS NULL THEN now() ELSE started_at END,
         finished_at = NULL, error_message = NULL, ${taken}
        WHERE id = $1 AND attempt = $2 AND step = $3 AND claimed_at IS NULL AND status IN ${ACTIVE}`;
  const { rows } = await pool().query<{ claimed: number }>(
    `WITH claimed AS (${claim} RETURNING 1),
          counted AS (UPDATE worker_heartbeats SET runs_taken = runs_taken + 1
                       WHERE id = $${w} AND EXISTS (SELECT 1 FROM claimed))
     SELECT count(*)::int AS claimed FROM claimed`,
    values,
  );
  return rows[0]?.claimed === 1;
}

export interface Progress {
  /** null: leave the phase as it is (follow-up steps). */
  phase: RunPhase | null;
  done: number;
  total: number;
  counters: Record<string, number>;
}

/** Records progress of a claimed step; false when the run no longer belongs to this worker's claim. */
export async function heartbeat(kind: RunKind, run: RunRef, progress: Progress): Promise<boolean> {
  const values: unknown[] = [run.id, run.attempt];
  const sets = ['heartbeat_at = now()'];
  // A follow-up step (phase null) leaves the finished run's phase and progress as they are.
  if (progress.phase !== null) {
    values.push(progress.phase, progress.done, progress.total);
    sets.push('phase = $3', 'progress_done = $4', 'progress_total = $5');
  }
  for (const [key, value] of Object.entries(progress.counters)) {
    const column = kind.counters[key];
    if (!column) throw new Error(`${kind.name} runs have no counter "${key}"`);
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  const { rowCount } = await pool().query(
    `UPDATE ${kind.table} SET ${sets.join(', ')}
      WHERE id = $1 AND attempt = $2 AND claimed_at IS NOT NULL AND status IN ('running', 'succeeded', 'partial')`,
    values,
  );
  return rowCount === 1;
}

/** Applies one state change to a claimed step and, in the same transaction, the step's result writes. */
async function transition(
  kind: RunKind,
  run: RunRef,
  step: AnyStep,
  set: string,
  values: unknown[],
  write?: ResultWrite,
): Promise<boolean> {
  return transaction(async (client) => {
    const { rowCount } = await client.query(
      `UPDATE ${kind.table} SET ${set}, claimed_at = NULL, heartbeat_at = now()
        WHERE id = $1 AND attempt = $2 AND step = $3 AND claimed_at IS NOT NULL
          AND status IN ${step.followUp ? SETTLED : `('running')`}`,
      [run.id, run.attempt, step.name, ...values],
    );
    if (rowCount !== 1) return false;
    await write?.(client);
    return true;
  });
}

/** The run goes on with `next`, waiting in the queue for it. */
export function advanceStep(
  kind: RunKind,
  run: RunRef,
  step: AnyStep,
  next: AnyStep,
  write?: ResultWrite,
  /** The phase shown while it waits (default the next step's waitingPhase). */
  waitingPhase: RunPhase = next.waitingPhase,
): Promise<boolean> {
  return transition(kind, run, step, 'step = $4, phase = $5', [next.name, waitingPhase], write);
}

/** The run's outcome is known; `then` is a follow-up step still to run (or none). */
export function settleRun(
  kind: RunKind,
  run: RunRef,
  step: AnyStep,
  outcome: { status: 'succeeded' | 'partial' | 'failed'; message: string | null; then: AnyStep | null },
  write?: ResultWrite,
): Promise<boolean> {
  return transition(
    kind,
    run,
    step,
    `status = $4::"RunStatus", phase = $5, error_message = $6, step = $7, finished_at = now()`,
    [
      outcome.status,
      outcome.status === 'failed' ? 'failed' : 'done',
      outcome.message,
      outcome.then?.name ?? null,
    ],
    write,
  );
}

/** A follow-up step is over: nothing is left to do. */
export function completeFollowUp(kind: RunKind, run: RunRef, step: AnyStep, write?: ResultWrite) {
  return transition(kind, run, step, 'step = NULL', [], write);
}

/** The step failed: the run is failed with a user-safe message (a failed follow-up step only ends). */
export async function failStep(kind: RunKind, run: RunRef, step: AnyStep, message: string): Promise<void> {
  if (step.followUp) {
    await completeFollowUp(kind, run, step);
    return;
  }
  await transaction(async (client) => {
    const { rowCount } = await client.query(
      `UPDATE ${kind.table} SET status = 'failed', phase = 'failed', error_message = $3, finished_at = now(),
         claimed_at = NULL, step = NULL
        WHERE id = $1 AND attempt = $2 AND status IN ${ACTIVE}`,
      [run.id, run.attempt, message],
    );
    if (rowCount === 1) await kind.onFail?.(client, run.id);
  });
}

/**
 * Starts a settled run again at `step` (not its first), with the caller's writes in the same transaction
 * (one that throws undoes the restart): a settled audit given a crawl export later reads only the crawl and
 * goes on from there. Only a run that settled (succeeded or partial) with nothing left to do (its
 * follow-ups over) and no claim starts again, so no worker holds any of its steps; its attempts count
 * afresh (a new run of the same row: its start is the first claim's, so its duration is this run's), and a
 * job of an earlier attempt finds another step and does nothing.
 * False when the run is not so (it runs, failed, was cancelled, is still finishing, or is gone).
 */
export async function reopenRun(
  kind: RunKind,
  id: string,
  step: AnyStep,
  write: (client: pg.PoolClient) => Promise<void>,
): Promise<boolean> {
  return transaction(async (client) => {
    const { rowCount } = await client.query(
      `UPDATE ${kind.table} SET status = 'queued', phase = $3, step = $2, attempt = 1, claimed_at = NULL,
         heartbeat_at = NULL, started_at = NULL, finished_at = NULL, error_message = NULL, progress_done = 0,
         progress_total = 0
        WHERE id = $1 AND status IN ${SETTLED} AND step IS NULL AND claimed_at IS NULL`,
      [id, step.name, step.waitingPhase],
    );
    if (rowCount !== 1) return false;
    await write(client);
    return true;
  });
}

/** A run whose first job could not even be queued. */
export async function failUnstarted(kind: RunKind, id: string, message: string): Promise<void> {
  await pool().query(
    `UPDATE ${kind.table} SET status = 'failed', phase = 'failed', error_message = $2, finished_at = now(),
       step = NULL WHERE id = $1 AND status = 'queued' AND claimed_at IS NULL`,
    [id, message],
  );
}

export type CancelOutcome = { cancelled: true } | { cancelled: false; status: RunStatus | null };

/** Stops a queued or running run; its worker notices at its next heartbeat. */
export async function cancelRun(kind: RunKind, id: string, by: string): Promise<CancelOutcome> {
  const cancelled = await transaction(async (client) => {
    const { rowCount } = await client.query(
      `UPDATE ${kind.table} SET status = 'cancelled', phase = 'cancelled', cancelled_by = $2, cancelled_at = now(),
         finished_at = now(), claimed_at = NULL, step = NULL
        WHERE id = $1 AND status IN ${ACTIVE}`,
      [id, by],
    );
    if (rowCount === 1) await kind.onCancel?.(client, id);
    return rowCount === 1;
  });
  if (cancelled) return { cancelled: true };
  const { rows } = await pool().query<{ status: RunStatus }>(
    `SELECT status FROM ${kind.table} WHERE id = $1`,
    [id],
  );
  return { cancelled: false, status: rows[0]?.status ?? null };
}

export async function runStatus(kind: RunKind, id: string): Promise<RunStatus | null> {
  const { rows } = await pool().query<{ status: RunStatus }>(
    `SELECT status FROM ${kind.table} WHERE id = $1`,
    [id],
  );
  return rows[0]?.status ?? null;
}

export interface Reaped {
  id: string;
  attempt: number;
  /** queued: a fresh attempt of `step` was queued; failed: given up; settled: a follow-up re-queued or
   * given up (the run's outcome stands). */
  status: RunStatus;
  step: string | null;
}

/**
 * Claimed steps whose heartbeat is older than `staleSeconds` get a fresh attempt of the same step, or,
 * after `maxAttempts`, fail with a reason. Steps waiting in the queue are never judged: nobody owes them
 * a heartbeat.
 */
export async function reapStale(kind: RunKind, staleSeconds: number, maxAttempts: number): Promise<Reaped[]> {
  return transaction(async (client: pg.PoolClient) => {
    const { rows } = await client.query<Reaped & { gaveUp: boolean }>(
      `WITH stale AS (
         SELECT id, step AS old_step, attempt < $2 AS retry FROM ${kind.table}
          WHERE claimed_at IS NOT NULL AND heartbeat_at < now() - make_interval(secs => $1)
          FOR UPDATE SKIP LOCKED)
       UPDATE ${kind.table} r SET
         claimed_at = NULL,
         attempt = CASE WHEN s.retry THEN r.attempt + 1 ELSE r.attempt END,
         step = CASE WHEN s.retry THEN r.step END,
         status = CASE WHEN r.status IN ${SETTLED} THEN r.status
                       WHEN s.retry THEN 'queued'::"RunStatus" ELSE 'failed'::"RunStatus" END,
         phase = CASE WHEN r.status IN ${SETTLED} THEN r.phase WHEN s.retry THEN 'retrying' ELSE 'failed' END,
         finished_at = CASE WHEN r.status IN ${SETTLED} THEN r.finished_at WHEN s.retry THEN NULL ELSE now() END,
         error_message = CASE WHEN r.status IN ${SETTLED} THEN r.error_message WHEN s.retry THEN NULL
           ELSE 'The worker processing this ${kind.noun} stopped responding ' || r.attempt || ' times; it was given up' END
       FROM stale s WHERE r.id = s.id
       RETURNING r.id, r.attempt, r.status, s.old_step AS step, NOT s.retry AS "gaveUp"`,
      [staleSeconds, maxAttempts],
    );
    for (const row of rows) if (row.status === 'failed') await kind.onFail?.(client, row.id);
    return rows.map(({ gaveUp, ...row }) => ({ ...row, step: gaveUp ? null : row.step }));
  });
}
