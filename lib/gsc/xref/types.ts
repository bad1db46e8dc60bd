// The cross-reference of Search Console with the findings (GET /audits/{id}/gsc/cross-reference).
import type { GscBucket } from '@/lib/findings/evidence/gsc-reasons';

/** One not-indexed bucket: the URLs Search Console names with it, and where they stand in the audit. */
export interface GscCrossReferenceRow {
  bucket: GscBucket;
  /** Search Console's own wordings of the bucket among these URLs, as written, sorted. */
  reasons: string[];
  /** Our reasons that mean the same problem (lib/findings/evidence/gsc-reasons.ts); empty: only Google can tell. */
  matchingReasons: string[];
  /** Keys Search Console names with the bucket now (lib/findings/evidence/gsc-current.ts). */
  named: number;
  /** Of them, keys some sitemap of the audit declares. */
  declared: number;
  /** Declared keys on our prune list for a reason the bucket names; null when it names none of ours. */
  pruneMatching: number | null;
  /** Declared keys on our prune list for another reason (all of them when pruneMatching is null). */
  pruneOther: number;
  /** Declared keys our reconciliation held (not judged, e.g. newer than the crawl). */
  held: number;
  /** Declared keys we do not flag (neither pruned nor held). */
  notFlagged: number;
}

/** Indexed URLs the same way: `prune` is "prune with care", rows we would prune that Google has indexed. */
export interface GscCrossReferenceIndexed {
  named: number;
  declared: number;
  prune: number;
  held: number;
  notFlagged: number;
}

export interface GscCrossReferenceDto {
  /** Not-indexed buckets with at least one URL, in the order of GSC_BUCKETS. */
  rows: GscCrossReferenceRow[];
  indexed: GscCrossReferenceIndexed;
  /** Declared keys (distinct) Search Console says nothing of. */
  unknownDeclared: number;
}
