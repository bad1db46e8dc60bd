// Runs one step of a run for the worker: claim it, run the kind's handler with a heartbeat, then apply
// what the handler says comes next. The handler never changes the run's state itself.
import { AppError } from '@/lib/core/errors';
import { enqueue, type JobData } from '@/lib/queue/queue';
import {
  advanceStep,
  claimStep,
  completeFollowUp,
  failStep,
  runStatus,
  type StepWorker,
  settleRun,
} from './mutations';
import type { RunPhase } from './phases';
import { ProgressReporter, RunAbandoned } from './progress';
import type { RunKind, RunRef, StepDef, StepResult } from './types';

type AnyStep = StepDef<string, RunPhase>;

export function stepOf(kind: RunKind, name: string): AnyStep {
  const step = kind.steps.find((s) => s.name === name);
  if (!step) throw new Error(`${kind.name} runs have no step "${name}"`);
  return step;
}

/** The run a job names (jobs queued before runs carried `auditId`). */
export function runRefOf(data: JobData): RunRef {
  return { id: 'runId' in data ? data.runId : data.auditId, attempt: data.attempt };
}

/** Tells the kind that a run reached a final state; its failure is logged, never the run's. */
export async function runFinished(kind: RunKind, runId: string): Promise<void> {
  if (!kind.onFinished) return;
  try {
    await kind.onFinished(runId);
  } catch (error) {
    console.error(`[runs] after ${kind.noun} ${runId} finished, its follow-up failed`, error);
  }
}

/** Queues a step of a run for its attempt. */
export function queueStep(step: AnyStep, run: RunRef, startAfter?: Date): Promise<void> {
  return enqueue(step.queue, { runId: run.id, attempt: run.attempt }, startAfter ? { startAfter } : {});
}

async function apply(
  kind: RunKind,
  run: RunRef,
  step: AnyStep,
  result: StepResult<string>,
  worker: StepWorker | null,
) {
  if ('next' in result) {
    const next = stepOf(kind, result.next);
    const waitingPhase = result.wait?.phase ?? next.waitingPhase;
    if (!(await advanceStep(kind, run, step, next, result.write, waitingPhase))) return false;
    await queueStep(next, run, result.wait?.until).catch(async (error: Error) => {
      console.error(`[worker] could not queue the ${next.name} step of ${run.id}: ${error.message}`);
      // The step waits with no job to run it: the run would wait for ever.
      await failStep(kind, run, next, 'The job queue is unavailable; the run could not go on');
      await runFinished(kind, run.id);
    });
    return true;
  }
  if ('outcome' in result) {
    const then = result.followUp ? stepOf(kind, result.followUp) : null;
    const settled = await settleRun(
      kind,
      run,
      step,
      { status: result.outcome, message: result.message ?? null, then },
      result.write,
    );
    if (settled && then) {
      await queueStep(then, run).catch((error: Error) =>
        console.error(`[worker] could not queue the ${then.name} step of ${run.id}: ${error.message}`),
      );
    }
    if (settled) await runFinished(kind, run.id);
    // The queued job then finds the step done (its claim fails) and does nothing.
    if (settled && then?.inline)
      await runStep(kind, then.name, { runId: run.id, attempt: run.attempt }, worker);
    return settled;
  }
  return completeFollowUp(kind, run, step, result.write);
}

/** Runs `stepName` of the run a job names. Returns quietly when the run is not this job's to run.
 * `worker` is the process taking it (recorded on the run); none in tests that run a step in-process. */
export async function runStep(
  kind: RunKind,
  stepName: string,
  data: JobData,
  worker: StepWorker | null = null,
): Promise<void> {
  const step = stepOf(kind, stepName);
  const run = runRefOf(data);
  if (!(await claimStep(kind, step, run, worker))) return; // gone, finished, cancelled, superseded or taken
  const progress = new ProgressReporter(kind, run, step.followUp ? null : step.phase);
  let applied = false;
  try {
    const handler = await step.handler();
    const result = await handler({ run, progress, signal: progress.signal });
    await progress.stop();
    applied = await apply(kind, run, step, result, worker);
  } catch (error) {
    await progress.stop();
    if (!progress.signal.aborted && !(error instanceof RunAbandoned)) {
      console.error(`[worker] the ${step.name} step of ${kind.noun} ${run.id} failed`, error);
      await failStep(kind, run, step, error instanceof AppError ? error.message : step.failure);
      // A follow-up step's failure only ends it: the run had finished before.
      if (!step.followUp) await runFinished(kind, run.id);
      return;
    }
  }
  // A step that lost its run (cancelled under it) leaves nothing half-written behind; what finished steps
  // stored stays. A deleted run's rows went with it; a superseded attempt's are replaced by the next one.
  if (!applied && step.discard && (await runStatus(kind, run.id)) === 'cancelled') {
    await step
      .discard(run.id)
      .catch((error: Error) =>
        console.error(`[worker] could not discard the cancelled ${step.name} step of ${run.id}`, error),
      );
  }
}
