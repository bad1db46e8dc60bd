// What a run kind declares: the table holding its runs, its phases, its ordered steps and a handler for
// each. lib/runs owns every change of a run's state; a kind's handlers only do the work and say what
// comes next (StepResult).
import type { DbClient } from '@/lib/db/types';
import type { QueueName } from '@/lib/queue/queue';
import type { RunPhase } from './phases';
import type { ProgressReporter } from './progress';

/** A run as the queue knows it: its id and the attempt the job belongs to (fencing every write). */
export interface RunRef {
  id: string;
  attempt: number;
}

/** Writes a step's results in the same transaction as its state change, so both land or neither. */
export type ResultWrite = (client: DbClient) => Promise<unknown>;

export type StepResult<S extends string> =
  /** Hand over to the next step: the run stays running, queued for it (waiting is never stale). With
   * `wait`, the step's job starts no earlier than `until` and the run shows `phase` meanwhile (a URL
   * Inspection run waiting for the next day's quota re-queues its own step this way). */
  | { next: S; write?: ResultWrite; wait?: { until: Date; phase: RunPhase } }
  /** The run's outcome is known; `followUp` names a step that runs after it (e.g. indexes). */
  | {
      outcome: 'succeeded' | 'partial' | 'failed';
      message?: string | null;
      followUp?: S;
      write?: ResultWrite;
    }
  /** A follow-up step is over. */
  | { done: true; write?: ResultWrite };

export interface StepContext<P extends RunPhase> {
  run: RunRef;
  /** Heartbeats and progress; its signal aborts when the run was cancelled, deleted or superseded. */
  progress: ProgressReporter<P>;
  signal: AbortSignal;
}

// Declared as a method so that it is bivariant in its context: lib/runs holds every kind as a
// RunKind<string, RunPhase>, while each kind's handlers report only that kind's phases.
export type StepHandler<S extends string, P extends RunPhase> = {
  handle(context: StepContext<P>): Promise<StepResult<S>>;
}['handle'];

export interface StepDef<S extends string, P extends RunPhase> {
  name: S;
  queue: QueueName;
  /** The phase a worker's claim sets (not for follow-up steps, which leave the finished run's phase). */
  phase: P;
  /** The phase of a run queued for this step after the previous one (the first step waits as `queued`). */
  waitingPhase: P;
  /** Runs after the outcome was settled (succeeded/partial); cannot be cancelled. */
  followUp?: boolean;
  /** A follow-up the worker that settled the run runs at once, right after the outcome is committed,
   * instead of waiting for the queue to hand it on (a queue polled once a second hands on one job a
   * second); its queued job is the fallback when that worker dies first. */
  inline?: boolean;
  /** Shown to users when the handler throws something that is not an AppError. */
  failure: string;
  /** Loaded when a worker first runs the step, so the web server never loads the worker's code. */
  handler: () => Promise<StepHandler<S, P>>;
  /** Removes what an unfinished attempt of this step wrote, when the run was cancelled under it. */
  discard?: (runId: string) => Promise<void>;
}

export interface RunKind<S extends string = string, P extends RunPhase = RunPhase> {
  name: string;
  /** What users call one run, in messages ("audit"). */
  noun: string;
  /** The table holding this kind's runs, with the lifecycle columns (see docs/internals.md). */
  table: string;
  phases: readonly P[];
  steps: readonly StepDef<S, P>[];
  /** Running counters a heartbeat may write: progress key → column of the run table. */
  counters: Readonly<Record<string, string>>;
  /** Extra writes when a run fails (in the same transaction), e.g. marking unfinished files. */
  onFail?: (client: DbClient, runId: string) => Promise<unknown>;
  /** Extra writes when a run is cancelled (in the same transaction, after its row is updated), e.g. making
   * its counters count what it stored. */
  onCancel?: (client: DbClient, runId: string) => Promise<unknown>;
  /** Called once the run is in a final state (settled, failed, given up by the reaper, cancelled), after
   * that state is committed: best effort (lib/runs logs a failure and the run stands). It may be called
   * again for the same run (a failure retried, a cancel racing a failure): it must be idempotent. */
  onFinished?: (runId: string) => Promise<void>;
}

/** What the queue carries: the run's id and attempt, nothing else (`auditId` from before runs). */
export interface RunJobData {
  runId: string;
  attempt: number;
}
