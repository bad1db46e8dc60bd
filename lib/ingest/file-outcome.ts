// A file outcome with nothing measured yet (no sizes, no entries): what skipped and failed files report,
// and the base a robots.txt result fills in; the error a failure while reading a file becomes; and the
// watch for a byte order mark the lint is told of.
import { InflateBudgetError } from '@/lib/inflate/budget';
import { NetError } from '@/lib/net/types';
import { SitemapParseError } from '@/lib/sitemap/types';
import { isStorageError } from '@/lib/storage/types';
import { FetchBudgetError } from './fetch-budget';
import type { FileOutcome } from './tree-types';

export function emptyOutcome(
  status: FileOutcome['status'],
  error: FileOutcome['error'],
  kind: string | null = null,
): FileOutcome {
  return {
    status,
    kind,
    httpStatus: null,
    finalUrl: null,
    compressedBytes: null,
    uncompressedBytes: null,
    entries: 0,
    partial: false,
    error,
    warnings: [],
  };
}

/** Any failure while fetching or parsing one file, as that file's error (never the audit's). */
export function fileError(caught: unknown, source: string): NonNullable<FileOutcome['error']> {
  if (caught instanceof SitemapParseError) {
    return { code: caught.code, message: caught.message, line: caught.line, column: caught.column };
  }
  if (caught instanceof InflateBudgetError) return { code: 'inflate_budget_spent', message: caught.message };
  if (caught instanceof NetError || caught instanceof FetchBudgetError) {
    return { code: caught.code, message: caught.message };
  }
  if (isStorageError(caught, 'not_found')) {
    return {
      code: 'read_failed',
      message: `${source.slice(0, 200)}: the uploaded file is no longer stored (${caught.message})`,
    };
  }
  // Not expected (the parser's caps prevent the RangeErrors seen before); the detail is bounded.
  const detail = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
  return {
    code: 'read_failed',
    message: `${source.slice(0, 200)}: unexpected failure while reading this file (${detail.slice(0, 200)})`,
  };
}
