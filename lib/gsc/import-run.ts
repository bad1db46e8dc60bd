// The Search Console import run kind: one step, parse, reads the uploads (lib/gsc), groups them
// into exports and stores each export's rows as it is read; they count once the run succeeds, and a bad
// file (or a file over the import's budget) fails the run, which deletes them in the transaction of its
// outcome: it stores nothing but its problems. lib/runs does claims, heartbeats, retries and cancel.
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
      // A cancelled import keeps neither the rows it stored so far nor its uploads.
      discard: async (runId) => (await import('./service')).discardImport(runId),
    },
  ],
  // A step that threw (a file gone from disk, the database) leaves no rows or uploads behind either.
  onFail: async (client, runId) => (await import('./service')).discardImport(runId, client),
};
