// Keeps a claimed step's heartbeat and progress fresh while it runs, and notices when the run was
// cancelled, deleted or taken over by a newer attempt: then `signal` aborts and the next update throws.
import { heartbeat } from './mutations';
import type { RunPhase } from './phases';
import { staleAfterSeconds } from './settings';
import type { RunKind, RunRef } from './types';

const FLUSH_MS = 500;

/** Thrown into a step's work when its run is no longer its own (cancelled, deleted, superseded). */
export class RunAbandoned extends Error {
  constructor() {
    super('the run was cancelled, deleted or restarted');
    this.name = 'RunAbandoned';
  }
}

// Several heartbeats fit in the staleness window, so one slow write never makes a live step look dead;
// a cancelled run is noticed within one of them.
export function heartbeatMs(): number {
  return Math.min(5_000, Math.max(250, (staleAfterSeconds() * 1000) / 4));
}

export class ProgressReporter<P extends RunPhase = RunPhase> {
  private readonly controller = new AbortController();
  private state: { phase: P | null; done: number; total: number; counters: Record<string, number> };
  private lastFlush = 0;
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly kind: RunKind,
    private readonly run: RunRef,
    /** null for follow-up steps: they never change the finished run's phase. */
    phase: P | null,
  ) {
    this.state = { phase, done: 0, total: 0, counters: {} };
    this.timer = setInterval(() => void this.flush(), heartbeatMs());
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Records progress; writes at most every FLUSH_MS (and on a phase change) so hot loops may call it. */
  async update(phase: P, done: number, total: number, counters: Record<string, number> = {}): Promise<void> {
    const phaseChanged = phase !== this.state.phase;
    this.state = { phase, done, total, counters: { ...this.state.counters, ...counters } };
    if (phaseChanged || Date.now() - this.lastFlush >= FLUSH_MS) await this.flush();
    if (this.controller.signal.aborted) throw new RunAbandoned();
  }

  /** Records running counters without changing the phase (work that runs beside the phase's own). */
  async count(counters: Record<string, number>): Promise<void> {
    const { phase, done, total } = this.state;
    if (phase === null) throw new Error('a follow-up step has no counters');
    return this.update(phase, done, total, counters);
  }

  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.lastFlush = Date.now();
    this.flushing = heartbeat(this.kind, this.run, this.state)
      .then((alive) => {
        if (!alive) this.controller.abort(new RunAbandoned());
      })
      .catch((error: Error) => console.error(`[worker] heartbeat failed: ${error.message}`))
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  /** Stops the heartbeat; waits for a write under way, so none lands after the step's state change. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
  }
}
