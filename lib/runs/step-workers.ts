// Which worker took each step of a run, as its claims recorded it (`step_workers`, lib/runs/mutations.ts),
// read back for the API. Pure: the JSON is checked field by field, so a malformed element is left out.

export interface StepWorkerRecord {
  step: string;
  attempt: number;
  /** The worker's id, as /api/health lists it. */
  worker: string;
  /** Its machine (os.hostname()). */
  host: string;
  /** When it claimed the step. */
  at: string;
}

export function stepWorkersOf(value: unknown): StepWorkerRecord[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const { step, attempt, worker, host, at } = item as Record<string, unknown>;
    if (typeof step !== 'string' || typeof worker !== 'string' || typeof at !== 'string') return [];
    return [
      {
        step,
        attempt: typeof attempt === 'number' ? attempt : 1,
        worker,
        host: typeof host === 'string' ? host : '',
        at: new Date(at).toISOString(),
      },
    ];
  });
}
