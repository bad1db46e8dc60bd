// A finding row as the API shows it (pure): the DTO of the list, detail and JSONL export.
import { evidenceOf } from '@/lib/findings/evidence/rows';
import type { FindingDto, SitemapFileRef } from '@/lib/findings/schema';
import { targetOf } from '@/lib/findings/target';
import type { FindingRow } from '@/lib/findings/types';
import type { ColumnValues } from './columns/types';

/** Every declaring file: file_ids when the key is declared more than once, else the one sitemap file. */
function sitemapFilesOf(row: FindingRow, file: SitemapFileRef | null): SitemapFileRef[] {
  const ids = row.file_ids ?? [];
  if (ids.length === 0) return file ? [file] : [];
  return ids.map((id) => row.files?.find((f) => f.id === id) ?? { id, url: null, uploadName: null });
}

/** `crawlTime` is the audit's, shown as evidence of newer_than_crawl findings (null leaves it out);
 * `columns` the values the review's columns read for the row (columns/index.ts), null where absent. */
export function toFindingDto(
  row: FindingRow,
  crawlTime: string | null,
  columns: Partial<ColumnValues> = {},
): FindingDto {
  const reasons = row.reasons ?? [row.reason];
  const sitemapFile =
    row.sitemap_file_id === null
      ? null
      : { id: row.sitemap_file_id, url: row.file_url, uploadName: row.file_upload_name };
  return {
    id: row.id,
    url: row.url,
    list: row.list,
    reason: row.reason,
    reasons,
    evidence: evidenceOf(row, crawlTime),
    signals: row.signals ?? [],
    status: row.status,
    canonical: row.canonical,
    lastmod: row.lastmod?.toISOString() ?? null,
    depth: row.depth,
    inlinks: row.inlinks,
    target: targetOf(row),
    sitemapFile,
    sitemapFiles: sitemapFilesOf(row, sitemapFile),
    decision: row.decision,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    note: row.note,
    spotCheck: columns.spotCheck ?? null,
    gsc: columns.gsc ?? null,
  };
}
