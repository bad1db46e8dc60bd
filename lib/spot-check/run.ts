// The spot-check run kind: select (resolve the request to finding ids) → check (fetch them
// live, judge each, store items and summary). lib/runs does claims, heartbeats, retries and cancel.
import { SPOT_CHECK_PHASES, type SpotCheckPhase, type SpotCheckStep } from '@/lib/runs/phases';
import type { RunKind } from '@/lib/runs/types';

export const spotCheckRun: RunKind<SpotCheckStep, SpotCheckPhase> = {
  name: 'spot_check',
  noun: 'spot-check',
  table: 'spot_check_runs',
  phases: SPOT_CHECK_PHASES,
  counters: {},
  steps: [
    {
      name: 'select',
      queue: 'spot-check-select',
      phase: 'selecting',
      waitingPhase: 'queued',
      failure: 'The rows to check could not be chosen; see the worker log for details',
      handler: async () => (await import('./service')).selectStep,
    },
    {
      name: 'check',
      queue: 'spot-check',
      phase: 'checking',
      waitingPhase: 'check_queued',
      failure: 'The live check failed unexpectedly; see the worker log for details',
      // Nothing to discard: items are written only with the outcome, in its transaction.
      handler: async () => (await import('./service')).checkStep,
    },
  ],
};
