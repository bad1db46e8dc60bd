// JSONL lines and file names for exports (the CSV itself is formatted by Postgres: see copyFindingsCsv).
import type { FindingDto } from './schema';

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
