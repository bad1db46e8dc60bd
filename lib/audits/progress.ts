// What an audit's progress says, derived from the counters of the same audit row, so the progress and
// the totals shown beside it can never disagree (once: "Importing crawl export · 0 done" while the
// crawl tile showed 5,000). Pure: the audit page, its API and the audits list all read it through here.
import { formatCount } from '@/lib/core/format';

export interface ProgressRow {
  phase: string;
  progressDone: number;
  progressTotal: number;
  sitemapFiles: number;
  crawlRows: number;
}

/** What a phase counts: sitemap files (the Sitemap files tile) or crawl rows (the Crawl rows tile). */
export type ProgressUnit = 'files' | 'rows';

const UNITS: Record<string, ProgressUnit> = { sitemaps: 'files', indexing_sitemaps: 'files', crawl: 'rows' };
const FINAL_PHASES = new Set(['done', 'failed', 'cancelled']);

/** What the phase counts; null while it counts nothing (waiting, reconciling). */
export function progressUnit(phase: string): ProgressUnit | null {
  return UNITS[phase] ?? null;
}

/**
 * While the sitemap tree is read, `done` is the files read; while the crawl export is read after the
 * tree, the crawl rows stored (its total is not known). The crawl export is read beside the tree, so its
 * rows may be counted long before the phase is `crawl`: the step's own `progress_done` started again
 * from 0 there. A phase that counts nothing says 0 of 0; a finished run keeps what its step wrote.
 */
export function progressOf(row: ProgressRow): { done: number; total: number } {
  const unit = progressUnit(row.phase);
  if (unit === 'files')
    return { done: row.sitemapFiles, total: Math.max(row.sitemapFiles, row.progressTotal) };
  if (unit === 'rows') return { done: row.crawlRows, total: 0 };
  if (FINAL_PHASES.has(row.phase))
    return { done: Math.min(row.progressDone, row.progressTotal), total: row.progressTotal };
  return { done: 0, total: 0 };
}

/** "3 of 5 files", "5,000 rows"; null when the phase counts nothing. */
export function progressText(phase: string, progress: { done: number; total: number }): string | null {
  const unit = progressUnit(phase);
  if (!unit) return null;
  const noun =
    unit === 'files' ? (progress.total === 1 ? 'file' : 'files') : progress.done === 1 ? 'row' : 'rows';
  return progress.total > 0
    ? `${formatCount(progress.done)} of ${formatCount(progress.total)} ${noun}`
    : `${formatCount(progress.done)} ${noun}`;
}
