// Search Console's state of a finding in the review's words: the badge ("Not indexed: 404"), the filter's
// options and the bucket names of the cross-reference table. Pure, shared by the table, panel and filters.

import type { GscFilter } from '@/lib/findings/evidence/gsc';
import type { GscBucket } from '@/lib/findings/evidence/gsc-reasons';
import type { FindingGsc } from '@/lib/findings/schema';

/** A bucket in a few words (the badge is narrow; the panel shows Google's own wording beside it). */
const BUCKET_LABELS: Record<GscBucket, string> = {
  server_error: 'server error',
  redirects: 'redirect',
  blocked_by_robots: 'robots.txt',
  noindex: 'noindex',
  soft_404: 'soft 404',
  http_401: '401',
  http_403: '403',
  http_404: '404',
  http_4xx: 'other 4xx',
  removed: 'removed',
  non_canonical: 'alternate (canonical)',
  duplicate: 'duplicate',
  crawled_not_indexed: 'crawled, not indexed',
  discovered_not_indexed: 'discovered, not indexed',
  crawl_issue: 'crawl issue',
  unknown_to_google: 'unknown to Google',
  other: 'other reason',
};

export function gscBucketLabel(bucket: GscBucket): string {
  return BUCKET_LABELS[bucket];
}

/** "Indexed", or "Not indexed: 404" (Google's reason when it is one we have no bucket for). */
export function gscBadgeText(gsc: Pick<FindingGsc, 'state' | 'bucket' | 'reason'>): string {
  if (gsc.state === 'indexed') return 'Indexed';
  const short = gsc.bucket && gsc.bucket !== 'other' ? gscBucketLabel(gsc.bucket) : gsc.reason;
  return short ? `Not indexed: ${short}` : 'Not indexed';
}

/** The filter select's options. */
export function gscFilterLabel(value: GscFilter): string {
  if (value === 'indexed') return 'Indexed';
  if (value === 'not_indexed') return 'Not indexed (any reason)';
  if (value === 'unknown') return 'Not in Search Console';
  return `Not indexed: ${gscBucketLabel(value)}`;
}

/** How the row's reason compares with Google's, in the panel. */
export function gscAgreementText(gsc: Pick<FindingGsc, 'state' | 'agrees'>, isPrune: boolean): string {
  if (gsc.state === 'indexed') {
    return isPrune
      ? 'Google has this URL indexed: prune with care (it may still bring visitors).'
      : 'Google has this URL indexed.';
  }
  if (gsc.agrees === true) return "Google's reason agrees with ours.";
  if (gsc.agrees === false) return "Google's reason is not ours: the two disagree.";
  return 'Only Google can tell this reason; nothing of ours compares with it.';
}
