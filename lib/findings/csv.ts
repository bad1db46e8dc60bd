// CSV and JSONL lines for exports. Cells that a spreadsheet would run as a formula are neutralised.
import { evidenceLines } from './format';
import type { FindingDto } from './schema';

export const CSV_HEADER = [
  'url',
  'reason',
  'detail',
  'decision',
  'decided_by',
  'decided_at',
  'note',
] as const;

// = + - @ start a formula in Excel, LibreOffice and Sheets; TAB and CR can hide one behind them.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula starts neutralised with a leading apostrophe, then RFC 4180 quoting. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function findingCsvLine(f: FindingDto): string {
  return csvLine([
    f.url,
    f.reason,
    evidenceLines(f).join('; '),
    f.decision,
    f.decidedBy,
    f.decidedAt,
    f.note,
  ]);
}

export function findingJsonLine(f: FindingDto): string {
  return `${JSON.stringify({
    url: f.url,
    reason: f.reason,
    reasons: f.reasons,
    list: f.list,
    evidence: f.evidence,
    decision: f.decision,
    decided_by: f.decidedBy,
    decided_at: f.decidedAt,
    note: f.note,
  })}\n`;
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
