// The URL Inspection run kind: select (a seeded sample of declared entries spread across
// sitemap files) → inspect (each URL through the API, stored in batches; when the day's quota is spent the
// step waits for the next Pacific day and goes on where it stopped). lib/runs does claims, heartbeats,
// retries and cancel.
import { GSC_INSPECTION_PHASES, type GscInspectionPhase, type GscInspectionStep } from '@/lib/runs/phases';
import type { RunKind } from '@/lib/runs/types';

export const gscInspectionRun: RunKind<GscInspectionStep, GscInspectionPhase> = {
  name: 'gsc_inspection',
  noun: 'URL inspection',
  table: 'gsc_inspection_runs',
  phases: GSC_INSPECTION_PHASES,
  counters: {},
  steps: [
    {
      name: 'select',
      queue: 'gsc-inspection-select',
      phase: 'selecting',
      waitingPhase: 'queued',
      failure: 'The URLs to inspect could not be chosen; see the worker log for details',
      handler: async () => (await import('./inspection-service')).selectStep,
    },
    {
      name: 'inspect',
      queue: 'gsc-inspection',
      phase: 'inspecting',
      waitingPhase: 'inspect_queued',
      failure: 'URL inspection failed unexpectedly; see the worker log for details',
      // Nothing to discard: the batches stored before a cancel are real answers (and spent quota).
      handler: async () => (await import('./inspection-service')).inspectStep,
    },
  ],
};
