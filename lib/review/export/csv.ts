// The exports' columns, JSONL lines and file names (the CSV itself is formatted by Postgres: see
// copyFindingsCsv, which writes the same columns in the same order).
import type { FindingDto, SitemapFileRef } from '@/lib/findings/schema';
import { replacementOf } from '@/lib/findings/target';

/** The columns of both exports, in order: what a person needs to apply a row without looking anything up. */
export const EXPORT_COLUMNS = [
  'url',
  'reason',
  'reasons',
  'sitemap_files',
  'status',
  'lastmod',
  'replace_with',
  'target_status',
  'decision',
  'decided_by',
  'decided_at',
  'note',
] as const;

/** A sitemap file as the exports name it: its URL, else the name it was uploaded under. */
export function exportFileLabel(file: SitemapFileRef): string | null {
  return file.url ?? file.uploadName;
}

/**
 * Where a reader may split a CSV cell: the comma itself, the `;` and tab of other locales' readers, the
 * `|` the export joins lists with, and line ends (a reader that ignores quotes starts a new row there).
 */
const SPLIT_CHARS = ',;|\\t\\r\\n';
/** What a spreadsheet runs as a formula when a cell starts with it (OWASP's list). */
const FORMULA_CHARS = '=+@\\t\\r-';

/**
 * A cell no reader can turn into a formula, whatever separator it splits on: a `'` goes before every
 * segment that would start (after optional spaces) with a formula character, the cell's start and the
 * start after each split character alike. `ok;=1+1` becomes `ok;'=1+1`, `=1` becomes `'=1`; a cell with
 * nothing to fear is left as it is. The export applies the same rule in SQL (neutralisedSql).
 */
export const NEUTRALISE_PATTERN = `(?:^|(?<=[${SPLIT_CHARS}]))(?=[ ]*[${FORMULA_CHARS}])`;

const NEUTRALISE = new RegExp(NEUTRALISE_PATTERN, 'g');

export function neutraliseCell(text: string): string {
  return text.replace(NEUTRALISE, "'");
}

type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], unknown>;

/** One JSONL line: the CSV's columns, with the lists as arrays and the numbers as numbers. */
export function findingJsonLine(f: FindingDto): string {
  const row: ExportRow = {
    url: f.url,
    reason: f.reason,
    reasons: f.reasons,
    sitemap_files: f.sitemapFiles.map(exportFileLabel).filter((label) => label !== null),
    status: f.status,
    lastmod: f.lastmod,
    replace_with: replacementOf(f),
    target_status: f.target?.status ?? null,
    decision: f.decision,
    decided_by: f.decidedBy,
    decided_at: f.decidedAt,
    note: f.note,
  };
  return `${JSON.stringify(row)}\n`;
}

/** A download name that says what is inside: `<audit>-<list>-<decision>-<date>.csv`. */
export function exportFileName(
  auditName: string,
  list: string,
  decision: string,
  format: 'csv' | 'jsonl',
  now = new Date(),
): string {
  const slug =
    auditName
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'audit';
  return `${slug}-${list}-${decision}-${now.toISOString().slice(0, 10)}.${format}`;
}
