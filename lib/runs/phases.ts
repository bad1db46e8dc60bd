// The closed lists of a run's statuses, steps and phases, with the one table of their labels. Isomorphic:
// the UI labels phases from here, and each run table's CHECK constraints list exactly these values
// (lib/runs/phases.int.test.ts compares them).

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses a run never leaves (a follow-up step may still run after succeeded/partial). */
export const FINAL_RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'partial', 'failed', 'cancelled'];

/** Every phase any run can be in, with its label. A run kind declares which of them it uses. */
export const PHASE_LABELS = {
  queued: 'Waiting for a worker',
  retrying: 'Waiting to retry (the worker stopped responding)',
  starting: 'Starting',
  sitemaps: 'Reading sitemaps',
  crawl: 'Importing crawl export',
  crawling: 'Crawling the site',
  indexing_sitemaps: 'Indexing sitemap entries',
  reconcile_queued: 'Queued for reconciliation',
  reconciling: 'Reconciling',
  selecting: 'Choosing the rows to check',
  check_queued: 'Queued for checking',
  checking: 'Checking the live site',
  parsing: 'Reading the Search Console files',
  inspect_queued: 'Queued for URL inspection',
  inspecting: 'Inspecting URLs with Search Console',
  waiting_for_quota: "Waiting for the next day's inspection quota",
  linting: 'Grading the sitemap files',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
} as const;

export type RunPhase = keyof typeof PHASE_LABELS;

/** Phases every kind has: waiting, retrying and the three ends. */
export const COMMON_PHASES = [
  'queued',
  'retrying',
  'done',
  'failed',
  'cancelled',
] as const satisfies readonly RunPhase[];

export function isRunPhase(value: string): value is RunPhase {
  return Object.hasOwn(PHASE_LABELS, value);
}

/** The label of a phase; a value this code does not know (a newer worker's) is shown as it is. */
export function phaseLabel(phase: string): string {
  return isRunPhase(phase) ? PHASE_LABELS[phase] : phase;
}

/** The steps of the audit run, in order (ingest → reconcile → review indexes). `add_crawl` starts a settled
 * audit again when a crawl export is added to it later: it reads only the crawl, then reconcile follows. */
export const AUDIT_STEPS = ['ingest', 'add_crawl', 'reconcile', 'site_history', 'review_indexes'] as const;
export type AuditStep = (typeof AUDIT_STEPS)[number];

/** The phases of the audit run: its table's CHECK constraint lists exactly these. */
export const AUDIT_PHASES = [
  ...COMMON_PHASES,
  'starting',
  'sitemaps',
  'crawl',
  'indexing_sitemaps',
  'reconcile_queued',
  'reconciling',
] as const satisfies readonly RunPhase[];
export type AuditPhase = (typeof AUDIT_PHASES)[number];

/** The steps of a spot-check run (lib/spot-check/run.ts): choose the rows, then check them live. */
export const SPOT_CHECK_STEPS = ['select', 'check'] as const;
export type SpotCheckStep = (typeof SPOT_CHECK_STEPS)[number];

/** The phases of a spot-check run: spot_check_runs' CHECK constraint lists exactly these. */
export const SPOT_CHECK_PHASES = [
  ...COMMON_PHASES,
  'selecting',
  'check_queued',
  'checking',
] as const satisfies readonly RunPhase[];
export type SpotCheckPhase = (typeof SPOT_CHECK_PHASES)[number];

/** The step of a Search Console import (lib/gsc/import-run.ts): read the uploads and store their rows. */
export const GSC_IMPORT_STEPS = ['parse'] as const;
export type GscImportStep = (typeof GSC_IMPORT_STEPS)[number];

/** The phases of a Search Console import: gsc_imports' CHECK constraint lists exactly these. */
export const GSC_IMPORT_PHASES = [...COMMON_PHASES, 'parsing'] as const satisfies readonly RunPhase[];
export type GscImportPhase = (typeof GSC_IMPORT_PHASES)[number];

/** The steps of a URL Inspection run (lib/gsc/inspection-run.ts): choose the sample, then inspect it. */
export const GSC_INSPECTION_STEPS = ['select', 'inspect'] as const;
export type GscInspectionStep = (typeof GSC_INSPECTION_STEPS)[number];

/** The phases of a URL Inspection run: gsc_inspection_runs' CHECK constraint lists exactly these. */
export const GSC_INSPECTION_PHASES = [
  ...COMMON_PHASES,
  'selecting',
  'inspect_queued',
  'inspecting',
  'waiting_for_quota',
] as const satisfies readonly RunPhase[];
export type GscInspectionPhase = (typeof GSC_INSPECTION_PHASES)[number];

/** The step of a sitemap lint (lib/hygiene/audit/run.ts): grade the audit's stored sitemap files. */
export const LINT_STEPS = ['lint'] as const;
export type LintStep = (typeof LINT_STEPS)[number];

/** The phases of a sitemap lint: audit_lints' CHECK constraint lists exactly these. */
export const LINT_PHASES = [...COMMON_PHASES, 'linting'] as const satisfies readonly RunPhase[];
export type LintPhase = (typeof LINT_PHASES)[number];
