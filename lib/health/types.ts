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
  pid: number;
  concurrency: number;
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
  workers: { live: number; liveWithinSeconds: number; heartbeats: (WorkerBeat & { live: boolean })[] } | null;
}
