// Starting and cancelling runs on behalf of a user (the web process). Errors are user-safe AppErrors.

import { AppError } from '@/lib/core/errors';
import type { DbClient } from '@/lib/db/types';
import { cancelRun, failUnstarted, reopenRun } from './mutations';
import { queueStep, runFinished, stepOf } from './runner';
import type { RunKind } from './types';

/** Queues the first step of a freshly created run (attempt 1); a queue that is down fails the run. */
export async function startRun(kind: RunKind, id: string): Promise<void> {
  const first = kind.steps[0];
  if (!first) throw new Error(`${kind.name} runs have no steps`);
  try {
    await queueStep(first, { id, attempt: 1 });
  } catch (error) {
    await failUnstarted(kind, id, `The job queue is unavailable; the ${kind.noun} could not be started`);
    throw error;
  }
}

/** Starts a settled run again at `step` with `write` in the same transaction (lib/runs/mutations.ts
 * reopenRun) and queues that step; false when the run is not settled and idle. A queue that is down fails
 * the run, as at its start. */
export async function restartRunAt(
  kind: RunKind,
  id: string,
  step: string,
  write: (client: DbClient) => Promise<void>,
): Promise<boolean> {
  const def = stepOf(kind, step);
  if (!(await reopenRun(kind, id, def, write))) return false;
  try {
    await queueStep(def, { id, attempt: 1 });
  } catch (error) {
    await failUnstarted(kind, id, `The job queue is unavailable; the ${kind.noun} could not be started`);
    throw error;
  }
  return true;
}

/** Cancels a queued or running run on behalf of `by`; 404 when there is none, 409 when it has ended. */
export async function cancelRunFor(kind: RunKind, id: string, by: string): Promise<void> {
  const outcome = await cancelRun(kind, id, by);
  if (outcome.cancelled) {
    await runFinished(kind, id);
    return;
  }
  if (outcome.status === null) throw new AppError('not_found', `No such ${kind.noun}`);
  throw new AppError(
    'conflict',
    `This ${kind.noun} has already ended (${outcome.status}); there is nothing to cancel`,
  );
}
