// A finding row as the API shows it (pure): the DTO of the list, detail and JSONL export.
import { evidenceOf } from './evidence';
import type { FindingDto } from './schema';
import type { FindingRow } from './types';

/** `crawlTime` is the audit's, shown as evidence of newer_than_crawl findings (null leaves it out). */
export function toFindingDto(row: FindingRow, crawlTime: string | null): FindingDto {
  return {
    id: row.id,
    url: row.url,
    list: row.list,
    reason: row.reason,
    reasons: row.reasons ?? [row.reason],
    evidence: evidenceOf(row, crawlTime),
    status: row.status,
    canonical: row.canonical,
    lastmod: row.lastmod?.toISOString() ?? null,
    sitemapFile:
      row.sitemap_file_id === null
        ? null
        : { id: row.sitemap_file_id, url: row.file_url, uploadName: row.file_upload_name },
    decision: row.decision,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    note: row.note,
  };
}
