// A finding as the reads select it (one row of `findings f` joined to its sitemap file): the input of the
// DTO mapping and of the evidence table. Keys are the SQL column names.
import type { Hop, LiveError, Verdict } from '@/lib/spot-check/types';
import type { Decision, FindingList } from './schema';

export interface FindingRow {
  id: number;
  url: string;
  list: FindingList;
  reason: string;
  reasons: string[] | null;
  status: number | null;
  crawled_url: string | null;
  redirect_url: string | null;
  target_status: number | null;
  canonical_declared: boolean | null;
  variant_url: string | null;
  section: string | null;
  occurrences: number | null;
  indexable: boolean | null;
  noindex: boolean | null;
  blocked_by_robots: boolean | null;
  depth: number | null;
  crawled_at: Date | null;
  inlinks: number | null;
  /** Every sitemap file declaring the key when more than one entry does; empty: sitemap_file_id alone. */
  file_ids: number[] | null;
  /** The canonical's own crawl status (when the canonical is another crawled URL). */
  canonical_status: number | null;
  signals: string[] | null;
  /** canonical_pattern: declared pages sharing the canonical, and up to three of them. */
  pattern_count: number | null;
  pattern_examples: string[] | null;
  /** url_variant: the crawl status of the crawled form. */
  variant_status: number | null;
  canonical: string | null;
  lastmod: Date | null;
  sitemap_file_id: number | null;
  file_url: string | null;
  file_upload_name: string | null;
  /** The files of file_ids, when it is not empty (a JSON aggregate in the reads). */
  files: { id: number; url: string | null; uploadName: string | null }[] | null;
  decision: Decision;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
}

/** A finding's latest finished spot-check item (lib/findings/evidence/live.ts), as latestChecks reads it. */
export interface LatestCheckRow {
  finding_id: number;
  run_id: string;
  verdict: Verdict;
  live_reason: string | null;
  final_status: number | null;
  checked_at: Date;
  chain: Hop[];
  noindex: boolean;
  canonical: string | null;
  content_type: string | null;
  ms: number;
  error: LiveError | null;
  explanation: string;
}

/** A key's current Search Console state (lib/findings/evidence/gsc-current.ts), for the finding `finding_id`. */
export interface GscStateRow {
  finding_id: number;
  url: string;
  state: 'indexed' | 'not_indexed';
  reason: string | null;
  bucket: string | null;
  last_crawled: string | null;
  scope: string | null;
  source: 'drilldown' | 'performance' | 'inspection';
  import_id: string;
  imported_at: Date;
}
