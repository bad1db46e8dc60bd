// Finds claimed steps whose worker stopped sending heartbeats (killed, crashed, machine lost) and queues
// a fresh attempt of the same step, or gives up after MAX_ATTEMPTS.
import { type Reaped, reapStale } from './mutations';
import { queueStep, runFinished, stepOf } from './runner';
import { MAX_ATTEMPTS, staleAfterSeconds } from './settings';
import type { RunKind } from './types';

export async function reapStaleRuns(kinds: readonly RunKind[]): Promise<(Reaped & { kind: string })[]> {
  const reaped: (Reaped & { kind: string })[] = [];
  for (const kind of kinds) {
    for (const row of await reapStale(kind, staleAfterSeconds(), MAX_ATTEMPTS)) {
      if (row.step !== null) await queueStep(stepOf(kind, row.step), { id: row.id, attempt: row.attempt });
      else if (row.status === 'failed') await runFinished(kind, row.id);
      reaped.push({ ...row, kind: kind.name });
    }
  }
  return reaped;
}
