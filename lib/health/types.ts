// The JSON of GET /api/health (docs/api.md).

export interface QueueDepth {
  name: string;
  /** Jobs waiting to start: queued, or waiting to be retried. */
  queued: number;
  /** Jobs a worker holds now. */
  active: number;
}

export interface WorkerBeat {
  id: string;
  /** The worker's machine (os.hostname()). */
  host: string;
  pid: number;
  concurrency: number;
  /** Run steps it claimed since it started. */
  runsTaken: number;
  startedAt: string;
  lastBeatAt: string;
  ageSeconds: number;
}

export interface HealthReport {
  status: 'ok' | 'unhealthy';
  /** Why the status is not ok, in words an operator can act on; empty when ok. */
  problems: string[];
  checkedAt: string;
  database: { reachable: true; latencyMs: number } | { reachable: false; error: 'timeout' | 'unreachable' };
  queues: QueueDepth[] | null;
  workers: {
    live: number;
    liveWithinSeconds: number;
    /** The workers that beat within liveWithinSeconds, newest beat first. */
    beating: WorkerBeat[];
    /** Every heartbeat row (dead workers' for a day), newest first, at most 50. */
    heartbeats: (WorkerBeat & { live: boolean })[];
  } | null;
}
