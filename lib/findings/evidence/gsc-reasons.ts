// Search Console's page-indexing reasons in the product's vocabulary: each "Why pages aren't indexed" reason
// (as an overview's issues list or a drilldown's Metadata names it) maps to a bucket, which is one of the
// reconciliation's own reasons where the two mean the same problem ("Page with redirect" is `redirects`),
// or a bucket of its own for what only Google can tell ("Crawled - currently not indexed").

export const GSC_BUCKETS = [
  'server_error',
  'redirects',
  'blocked_by_robots',
  'noindex',
  'soft_404',
  'http_401',
  'http_403',
  'http_404',
  'http_4xx',
  'removed',
  'non_canonical',
  'duplicate',
  'crawled_not_indexed',
  'discovered_not_indexed',
  'crawl_issue',
  'unknown_to_google',
  'other',
] as const;
export type GscBucket = (typeof GSC_BUCKETS)[number];

/** Reason texts (lower case, quotes and dashes made plain, spaces collapsed) → bucket: every wording of
 * the Page indexing report (2022 on), of the Coverage report before it (the "Submitted URL …" errors and
 * the Excluded reasons), of URL Inspection's coverageState, and the renames Google made since
 * ("Alternate page …" became "Alternative page …"). A wording missing here is kept as written under
 * `other`, so a new one is visible, not lost. */
const BY_TEXT: Record<string, GscBucket> = {
  'server error (5xx)': 'server_error',
  'submitted url returns server error (5xx)': 'server_error',
  'redirect error': 'redirects',
  'page with redirect': 'redirects',
  'submitted url has redirect error': 'redirects',
  'blocked by robots.txt': 'blocked_by_robots',
  'url blocked by robots.txt': 'blocked_by_robots',
  'submitted url blocked by robots.txt': 'blocked_by_robots',
  "excluded by 'noindex' tag": 'noindex',
  "url marked 'noindex'": 'noindex',
  "submitted url marked 'noindex'": 'noindex',
  'soft 404': 'soft_404',
  'submitted url seems to be a soft 404': 'soft_404',
  'blocked due to unauthorized request (401)': 'http_401',
  'submitted url returns unauthorized request (401)': 'http_401',
  'submitted url returned unauthorized request (401)': 'http_401',
  'blocked due to access forbidden (403)': 'http_403',
  'submitted url returned 403': 'http_403',
  'submitted url returns 403': 'http_403',
  'not found (404)': 'http_404',
  'submitted url not found (404)': 'http_404',
  'blocked due to other 4xx issue': 'http_4xx',
  'url blocked due to other 4xx issue': 'http_4xx',
  'submitted url blocked due to other 4xx issue': 'http_4xx',
  'blocked by page removal tool': 'removed',
  'page removed because of legal complaint': 'removed',
  'alternative page with proper canonical tag': 'non_canonical',
  'alternate page with proper canonical tag': 'non_canonical',
  'duplicate without user-selected canonical': 'duplicate',
  'duplicate page without canonical tag': 'duplicate',
  'duplicate, google chose different canonical than user': 'duplicate',
  'duplicate, submitted url not selected as canonical': 'duplicate',
  'duplicate, non-html page': 'duplicate',
  'duplicate non-html page': 'duplicate',
  duplicate: 'duplicate',
  'crawled - currently not indexed': 'crawled_not_indexed',
  'discovered - currently not indexed': 'discovered_not_indexed',
  'crawl anomaly': 'crawl_issue',
  'submitted url has crawl issue': 'crawl_issue',
  'url is unknown to google': 'unknown_to_google',
};

/** Wordings that name indexed pages: the Page indexing report's indexed drill-down ("Indexed", "All
 * indexed pages"), the Coverage report's valid rows and warnings, and URL Inspection's indexed states.
 * "Indexed though blocked by robots.txt" is indexed: Google shows it, without reading the page. */
const INDEXED_TEXT = new Set([
  'indexed',
  'all indexed pages',
  'submitted and indexed',
  'indexed, not submitted in sitemap',
  'indexed, though blocked by robots.txt',
  'indexed though blocked by robots.txt',
  'indexed without content',
  'page indexed without content',
]);

/** The reason as a lookup key: lower case, curly quotes and dashes made plain, spaces collapsed. */
export function reasonKey(reason: string): string {
  return (
    reason
      .normalize('NFKC')
      .replace(/[\u2018\u2019\u201A\u201B\u2032`´]/g, "'")
      .replace(/[\u201C\u201D\u201E]/g, '"')
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/\s+/g, ' ')
      // "Crawled—currently not indexed", "Crawled -currently…": the dash with any spacing reads as " - ".
      .replace(/ ?- ?(currently)/g, ' - $1')
      .trim()
      .toLowerCase()
  );
}

/** Whether a wording names indexed pages (see INDEXED_TEXT); any other "Indexed…" wording is too. */
export function isIndexedReason(reason: string): boolean {
  const key = reasonKey(reason);
  return INDEXED_TEXT.has(key) || key.startsWith('indexed');
}

/** Every wording this file knows, indexed ones first, as Search Console writes them today (for the
 * import form's select: a lone Table.csv names its issue with one of these). */
export const GSC_ISSUE_CHOICES: readonly string[] = [
  'Indexed',
  'Server error (5xx)',
  'Redirect error',
  'Blocked by robots.txt',
  "Excluded by 'noindex' tag",
  'Soft 404',
  'Blocked due to unauthorized request (401)',
  'Blocked due to access forbidden (403)',
  'Not found (404)',
  'Blocked due to other 4xx issue',
  'Blocked by page removal tool',
  'Alternative page with proper canonical tag',
  'Duplicate without user-selected canonical',
  'Duplicate, Google chose different canonical than user',
  'Page with redirect',
  'Crawled - currently not indexed',
  'Discovered - currently not indexed',
  'Indexed, though blocked by robots.txt',
  'Page indexed without content',
];

/** Whether Search Console uses (or used) this wording: an indexed one or a reason with a bucket. */
export function isKnownReason(reason: string): boolean {
  return isIndexedReason(reason) || reasonKey(reason) in BY_TEXT;
}

/** The bucket of a Search Console reason; `other` for one this table does not know (kept as written). */
export function bucketOf(reason: string): GscBucket {
  return BY_TEXT[reasonKey(reason)] ?? 'other';
}

/** The reconciliation's reasons that name the same problem as a bucket (the cross-reference):
 * an empty list means only Google can tell (crawled or discovered but not indexed, duplicates). */
export function matchingFindingReasons(bucket: GscBucket): readonly string[] {
  switch (bucket) {
    case 'server_error':
      return ['server_error', 'http_500', 'http_502', 'http_503', 'http_504'];
    case 'redirects':
      return ['redirects'];
    case 'blocked_by_robots':
      return ['blocked_by_robots'];
    case 'noindex':
      return ['noindex'];
    case 'http_401':
      return ['http_401'];
    case 'http_403':
      return ['http_403'];
    case 'http_404':
      return ['http_404', 'http_410'];
    case 'http_4xx':
      return ['http_400', 'http_405', 'http_406', 'http_409', 'http_410', 'http_429', 'http_451'];
    case 'non_canonical':
      return ['non_canonical'];
    default:
      return [];
  }
}
