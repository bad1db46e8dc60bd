// The sitemap lint run kind: one step, lint, grades an audit's stored sitemap files with
// lib/hygiene's engine and stores the rules and per-file dirt with the run's outcome, in one transaction
// that replaces the audit's previous results. lib/runs does claims, heartbeats, retries and cancel.
import { LINT_PHASES, type LintPhase, type LintStep } from '@/lib/runs/phases';
import type { RunKind } from '@/lib/runs/types';

export const lintRun: RunKind<LintStep, LintPhase> = {
  name: 'lint',
  noun: 'sitemap lint',
  table: 'audit_lints',
  phases: LINT_PHASES,
  counters: {},
  steps: [
    {
      name: 'lint',
      queue: 'lint',
      phase: 'linting',
      waitingPhase: 'queued',
      failure: 'The sitemap files could not be graded; see the worker log for details',
      // Nothing to discard: results are written only with the outcome, in its transaction.
      handler: async () => (await import('./service')).lintStep,
    },
  ],
};
