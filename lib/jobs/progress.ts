// Keeps an audit's heartbeat and progress fresh while its job runs, and notices when the audit was
// deleted or taken over by a newer attempt (then the job is cancelled through `signal`).
import { heartbeat, type RunningCounts } from '@/lib/ingest/mutations';
import { staleAfterSeconds } from './reaper';

const FLUSH_MS = 500;

// Several heartbeats fit in the staleness window, so one slow write never makes a live job look dead.
function heartbeatMs(): number {
  return Math.min(5_000, Math.max(250, (staleAfterSeconds() * 1000) / 4));
}

export class ProgressReporter {
  private readonly controller = new AbortController();
  private state: { phase: string; done: number; total: number; counts: RunningCounts } = {
    phase: 'starting',
    done: 0,
    total: 0,
    counts: {},
  };
  private lastFlush = 0;
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly auditId: string,
    private readonly attempt: number,
  ) {
    this.timer = setInterval(() => void this.flush(), heartbeatMs());
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Records progress; writes at most every FLUSH_MS so hot loops can call it freely. */
  async update(phase: string, done: number, total: number, counts: RunningCounts = {}): Promise<void> {
    const phaseChanged = phase !== this.state.phase;
    this.state = { phase, done, total, counts: { ...this.state.counts, ...counts } };
    if (phaseChanged || Date.now() - this.lastFlush >= FLUSH_MS) await this.flush();
    if (this.controller.signal.aborted)
      throw new Error('ingest cancelled: the audit was deleted or restarted');
  }

  /** Records running counts without changing the phase (work that runs beside the phase's own). */
  async count(counts: RunningCounts): Promise<void> {
    return this.update(this.state.phase, this.state.done, this.state.total, counts);
  }

  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.lastFlush = Date.now();
    this.flushing = heartbeat(this.auditId, this.attempt, this.state)
      .then((alive) => {
        if (!alive) this.controller.abort();
      })
      .catch((error: Error) => console.error(`[worker] heartbeat failed: ${error.message}`))
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
