// The Search Console import run kind (issue #13): one step, parse, reads the uploads (lib/gsc), groups them
// into exports and stores their rows with the run's outcome, in one transaction: a bad file fails the run
// and stores nothing but its problems. lib/runs does claims, heartbeats, retries and cancel.
import { GSC_IMPORT_PHASES, type GscImportPhase, type GscImportStep } from '@/lib/runs/phases';
import type { RunKind } from '@/lib/runs/types';

export const gscImportRun: RunKind<GscImportStep, GscImportPhase> = {
  name: 'gsc_import',
  noun: 'Search Console import',
  table: 'gsc_imports',
  phases: GSC_IMPORT_PHASES,
  counters: {},
  steps: [
    {
      name: 'parse',
      queue: 'gsc-import',
      phase: 'parsing',
      waitingPhase: 'queued',
      failure: 'The Search Console files could not be imported; see the worker log for details',
      handler: async () => (await import('./service')).parseStep,
      // Nothing to discard but the uploads: rows are written only with the outcome, in its transaction.
      discard: async (runId) => (await import('./service')).removeUploadsOf(runId),
    },
  ],
  // A step that threw (a file gone from disk, the database) leaves no uploads behind either.
  onFail: async (_client, runId) => (await import('./service')).removeUploadsOf(runId),
};
