// What the Sitemap files card says above the tree. Its counts are the audit's own (the DTO's counters, the
// ones the tiles and the progress show); only what the counters do not hold (files with
// problems, files not read) is counted from the files loaded.
import { countText, formatCount } from '@/lib/core/format';
import { progressUnit } from './progress';
import type { AuditDto } from './schema';

export interface LoadedFiles {
  /** Files with a problem (failed, partial, an error or a warning) among those loaded. */
  problems: number;
  /** Files the audit stopped before reading (cancelled or failed meanwhile). */
  notRead: number;
  /** Files loaded, and the files the list holds in all (more pages may follow). */
  loaded: number;
  total: number;
}

const files = (n: number) => countText(n, 'file');

/** "6 of 21 files read · 0 failed" while it runs; "21 files · 1 failed · 2 with problems" once final. */
export function treeSummary(
  audit: Pick<AuditDto, 'status' | 'phase' | 'progress' | 'sitemap'>,
  list: LoadedFiles,
): string {
  const { files: read, filesFailed } = audit.sitemap;
  const failed = `${formatCount(filesFailed)} failed`;
  const problems = `${formatCount(list.problems)} with problems${list.loaded < list.total ? ` among the first ${formatCount(list.loaded)}` : ''}`;
  if (audit.status === 'queued') return read === 0 ? 'No file read yet' : `${files(read)} read · ${failed}`;
  if (audit.status === 'running') {
    const counting = progressUnit(audit.phase) === 'files' && audit.progress.total > read;
    const head = counting
      ? `${formatCount(read)} of ${files(audit.progress.total)} read`
      : `${files(read)} read`;
    return `${head} · ${failed} · ${problems}`;
  }
  const notRead = list.notRead > 0 ? ` · ${formatCount(list.notRead)} not read` : '';
  return `${files(read)} · ${failed} · ${problems}${notRead}`;
}

/** Why files are missing from the tree of an audit that ended before its ingest finished; null otherwise. */
export function unfinishedNote(audit: Pick<AuditDto, 'status' | 'timings'>): string | null {
  if (audit.timings.ingest !== undefined) return null;
  if (audit.status === 'cancelled')
    return 'The audit was cancelled while reading the sitemaps: files it had not reached are not listed.';
  if (audit.status === 'failed')
    return 'The audit failed while reading the sitemaps: files it had not reached are not listed.';
  return null;
}
