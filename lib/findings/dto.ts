// A finding row as the API shows it (pure): the DTO of the list, detail and JSONL export.
import { agreesWith, isGscBucket } from '@/lib/gsc/xref/sql';
import { evidenceOf } from './evidence';
import type {
  FindingDto,
  FindingGsc,
  FindingGscDetail,
  FindingSpotCheck,
  FindingSpotCheckDetail,
  SitemapFileRef,
} from './schema';
import { targetOf } from './target';
import type { FindingRow, GscStateRow, LatestCheckRow } from './types';

/** Every declaring file: file_ids when the key is declared more than once, else the one sitemap file. */
function sitemapFilesOf(row: FindingRow, file: SitemapFileRef | null): SitemapFileRef[] {
  const ids = row.file_ids ?? [];
  if (ids.length === 0) return file ? [file] : [];
  return ids.map((id) => row.files?.find((f) => f.id === id) ?? { id, url: null, uploadName: null });
}

/** A row's latest spot-check as the list shows it. */
export function toSpotCheck(check: LatestCheckRow | undefined): FindingSpotCheck | null {
  if (!check) return null;
  return {
    verdict: check.verdict,
    liveReason: check.live_reason,
    finalStatus: check.final_status,
    checkedAt: check.checked_at.toISOString(),
    runId: check.run_id,
  };
}

/** The same with its evidence, for the detail. */
export function toSpotCheckDetail(check: LatestCheckRow | undefined): FindingSpotCheckDetail | null {
  const summary = toSpotCheck(check);
  if (!check || !summary) return null;
  return {
    ...summary,
    chain: check.chain,
    noindex: check.noindex,
    canonical: check.canonical,
    contentType: check.content_type,
    ms: check.ms,
    error: check.error,
    explanation: check.explanation,
  };
}

/** A row's current Search Console state as the list shows it; `reasons` are the finding's. */
export function toGsc(state: GscStateRow | undefined, reasons: readonly string[]): FindingGsc | null {
  if (!state) return null;
  const bucket = state.bucket !== null && isGscBucket(state.bucket) ? state.bucket : null;
  return {
    state: state.state,
    reason: state.reason,
    bucket,
    lastCrawled: state.last_crawled,
    source: state.source,
    agrees: state.state === 'indexed' ? null : agreesWith(bucket, reasons),
  };
}

/** The same with the import it came from, for the detail. */
export function toGscDetail(
  state: GscStateRow | undefined,
  reasons: readonly string[],
): FindingGscDetail | null {
  const summary = toGsc(state, reasons);
  if (!state || !summary) return null;
  return {
    ...summary,
    url: state.url,
    scope: state.scope,
    importId: state.import_id,
    importedAt: state.imported_at.toISOString(),
  };
}

/** `crawlTime` is the audit's, shown as evidence of newer_than_crawl findings (null leaves it out);
 * `check` the row's latest spot-check item (latestChecks), `gsc` its current Search Console state
 * (gscStates), if any. */
export function toFindingDto(
  row: FindingRow,
  crawlTime: string | null,
  check: LatestCheckRow | undefined,
  gsc?: GscStateRow,
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
    spotCheck: toSpotCheck(check),
    gsc: toGsc(gsc, reasons),
  };
}
