// The reconciliation as set-based SQL, run inside one transaction on one connection. Every statement
// works on whole sets (hash joins over the audit's partitions), never row by row, so the same code
// serves 2,000 URLs and 5,000,000. Rules and their precedence are documented in docs/reconciliation.md.

/** URL parts from a normalized key (`scheme://host/path?query`): the host, and the path with its query. */
const host = (key: string) => `split_part(${key}, '/', 3)`;
const path = (key: string) =>
  `substr(${key}, length(split_part(${key}, '/', 1)) + length(split_part(${key}, '/', 3)) + 3)`;
const segment = (key: string, n: number) => `split_part(split_part(${path(key)}, '?', 1), '/', ${n})`;
/** A page's section: host + first directory; pages at the top level (`/about`) are in the host's root. */
const section = (key: string) =>
  `${host(key)} || '/' || CASE WHEN ${segment(key, 3)} = '' THEN '' ELSE ${segment(key, 2)} END`;

/** Declared keys, one row per key: the last occurrence (as the playbook's script keeps), with a count. */
export const declaredSql = `
CREATE TEMP TABLE d ON COMMIT DROP AS
SELECT DISTINCT ON (key) key, loose_key, loc, file_id, position, lastmod,
       count(*) OVER (PARTITION BY key) AS occurrences
  FROM sitemap_entries
 WHERE audit_id = $1 AND key IS NOT NULL
 ORDER BY key, file_id DESC, position DESC`;

/** Crawled keys, one row per key: a 2xx row wins over a 3xx, over anything else; then the last line. */
export const crawledSql = `
CREATE TEMP TABLE c ON COMMIT DROP AS
SELECT DISTINCT ON (key) key, loose_key, url, line, status, canonical, canonical_key, indexable, noindex,
       blocked_by_robots, crawled_at, depth, redirect_url, redirect_key
  FROM crawl_pages
 WHERE audit_id = $1 AND key IS NOT NULL
 ORDER BY key, CASE WHEN status BETWEEN 200 AND 299 THEN 0 WHEN status BETWEEN 300 AND 399 THEN 1 ELSE 2 END, line DESC`;

/** Near matches: one crawled URL per loose key (only used by the exact profile's url_variant rule). */
export const looseSql = `
CREATE TEMP TABLE cl ON COMMIT DROP AS
SELECT DISTINCT ON (loose_key) loose_key, url
  FROM c WHERE loose_key IS NOT NULL
 ORDER BY loose_key, CASE WHEN status BETWEEN 200 AND 299 THEN 0 ELSE 1 END, line`;

/** Sections the crawl reached at all. */
export const sectionsSql = `
CREATE TEMP TABLE sec ON COMMIT DROP AS
SELECT ${host('key')} || '/' AS section FROM c
UNION
SELECT ${host('key')} || '/' || ${segment('key', 2)} FROM c`;

export const analyzeSql = 'ANALYZE d; ANALYZE c; ANALYZE cl; ANALYZE sec';

/**
 * Prune and held findings. $1 audit, $2 exact profile?, $3 crawl time (nullable). Every applicable rule
 * is kept in `reasons`; the first is `reason`. Unmatched keys get exactly one of url_variant,
 * newer_than_crawl, section_not_crawled, unreached_by_crawl (in that order).
 */
export function declaredFindingsSql(part: string): string {
  return `
INSERT INTO "${part}" (audit_id, id, list, reason, reasons, url, key, host, path, evidence, status, canonical,
                       lastmod, sitemap_file_id, crawl_line)
SELECT $1, row_number() OVER (ORDER BY CASE WHEN x.reasons[1] IN ('newer_than_crawl', 'section_not_crawled') THEN 1 ELSE 0 END,
                                       x.file_id, x.position),
       CASE WHEN x.reasons[1] IN ('newer_than_crawl', 'section_not_crawled') THEN 'held' ELSE 'prune' END,
       x.reasons[1], x.reasons, x.loc, x.key, ${host('x.key')}, ${path('x.key')},
       jsonb_strip_nulls(jsonb_build_object(
         'status', x.status,
         'crawledUrl', CASE WHEN x.crawled_url <> x.loc THEN x.crawled_url END,
         'redirectTarget', x.redirect_url,
         'redirectTargetStatus', x.target_status,
         'canonical', CASE WHEN x.canonical_key <> x.key THEN x.canonical END,
         'canonicalDeclared', CASE WHEN x.canonical_key <> x.key THEN x.canonical_declared END,
         'variantUrl', x.variant_url,
         'lastmod', x.lastmod,
         'crawlTime', CASE WHEN x.reasons[1] = 'newer_than_crawl' THEN $3::timestamptz END,
         'section', CASE WHEN x.reasons[1] = 'section_not_crawled' THEN x.section END,
         'occurrences', NULLIF(x.occurrences, 1),
         'indexable', x.indexable,
         'noindex', NULLIF(x.noindex, false),
         'blockedByRobots', NULLIF(x.blocked_by_robots, false),
         'depth', x.depth)),
       x.status, x.canonical, x.lastmod, x.file_id, x.line
  FROM (
    SELECT d.key, d.loc, d.file_id, d.position, d.lastmod, d.occurrences,
           c.url AS crawled_url, c.line, c.status, c.canonical, c.canonical_key, c.indexable, c.noindex,
           c.blocked_by_robots, c.depth, c.redirect_url, t.status AS target_status,
           (cd.key IS NOT NULL) AS canonical_declared, cl.url AS variant_url, ${section('d.key')} AS section,
           CASE
             WHEN c.key IS NULL THEN ARRAY[CASE
               WHEN $2 AND cl.url IS NOT NULL THEN 'url_variant'
               WHEN $3::timestamptz IS NOT NULL AND d.lastmod > $3::timestamptz THEN 'newer_than_crawl'
               WHEN sec.section IS NULL THEN 'section_not_crawled'
               ELSE 'unreached_by_crawl' END]
             ELSE array_remove(ARRAY[
               CASE WHEN c.blocked_by_robots THEN 'blocked_by_robots' END,
               CASE WHEN NOT c.blocked_by_robots AND coalesce(c.status, 0) = 0 THEN 'no_response' END,
               CASE WHEN c.status >= 400 THEN 'http_' || c.status END,
               CASE WHEN c.status IN (301, 302, 303, 307, 308) THEN 'redirects' END,
               CASE WHEN c.canonical_key IS NOT NULL AND c.canonical_key <> d.key THEN 'non_canonical' END,
               -- An explicit noindex always counts; "not indexable" alone only when nothing else explains it
               -- (Screaming Frog marks redirects and canonicalised pages Non-Indexable too).
               CASE WHEN c.noindex OR (c.indexable = false AND c.status BETWEEN 200 AND 299
                                      AND NOT c.blocked_by_robots
                                      AND (c.canonical_key IS NULL OR c.canonical_key = d.key)) THEN 'noindex' END
             ], NULL)
           END AS reasons
      FROM d
      LEFT JOIN c ON c.key = d.key
      LEFT JOIN c t ON t.key = c.redirect_key
      LEFT JOIN d cd ON cd.key = c.canonical_key
      LEFT JOIN cl ON c.key IS NULL AND cl.loose_key = d.loose_key
      LEFT JOIN sec ON c.key IS NULL AND sec.section = ${section('d.key')}
  ) x
 WHERE cardinality(x.reasons) > 0`;
}

/** Add findings: crawled 200, indexable, self- or un-canonicalised, not declared. $1 audit, $2 first id. */
export function addFindingsSql(part: string): string {
  return `
INSERT INTO "${part}" (audit_id, id, list, reason, reasons, url, key, host, path, evidence, status, canonical,
                       lastmod, sitemap_file_id, crawl_line)
SELECT $1, $2::int - 1 + row_number() OVER (ORDER BY c.line), 'add', 'reachable_not_declared',
       ARRAY['reachable_not_declared'], c.url, c.key, ${host('c.key')}, ${path('c.key')},
       jsonb_strip_nulls(jsonb_build_object('status', c.status, 'depth', c.depth, 'crawledAt', c.crawled_at,
                                            'canonical', c.canonical)),
       c.status, c.canonical, NULL, NULL, c.line
  FROM c
 WHERE c.status = 200 AND c.indexable IS DISTINCT FROM false AND NOT c.noindex AND NOT c.blocked_by_robots
   AND (c.canonical_key IS NULL OR c.canonical_key = c.key)
   AND NOT EXISTS (SELECT 1 FROM d WHERE d.key = c.key)`;
}

/** What the add rule left out, among crawled pages the sitemap does not declare. */
export const addExcludedSql = `
SELECT count(*) FILTER (WHERE coalesce(c.status, 0) <> 200 OR c.blocked_by_robots)::int AS non200,
       count(*) FILTER (WHERE c.status = 200 AND NOT c.blocked_by_robots AND (c.noindex OR c.indexable = false))::int AS noindex,
       count(*) FILTER (WHERE c.status = 200 AND NOT c.blocked_by_robots AND NOT c.noindex
                          AND c.indexable IS DISTINCT FROM false
                          AND c.canonical_key IS NOT NULL AND c.canonical_key <> c.key)::int AS canonicalised
  FROM c WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.key = c.key)`;

/** Facts for the sanity warnings and the crawl time. */
export const factsSql = `
SELECT (SELECT count(*)::int FROM d) AS declared,
       (SELECT count(*)::int FROM c) AS crawled,
       (SELECT count(*)::int FROM d JOIN c USING (key)) AS matched,
       (SELECT max(crawled_at) FROM c) AS latest_crawl,
       (SELECT max(lastmod) FROM d) AS newest_lastmod,
       (SELECT coalesce(array_agg(h ORDER BY h), '{}') FROM (
          SELECT DISTINCT ${host('key')} AS h FROM d
          EXCEPT SELECT DISTINCT ${host('key')} FROM c) hs) AS hosts_not_crawled`;

export const countsSql = (part: string) => `
INSERT INTO finding_counts (audit_id, list, reason, decision, n)
SELECT $1, list, reason, decision, count(*)::int FROM "${part}" GROUP BY list, reason, decision`;

/** Prune and held reasons per sitemap file, largest first (chart data). */
export const byFileSql = (part: string) => `
SELECT f.sitemap_file_id AS file_id, f.reason, count(*)::int AS n
  FROM "${part}" f WHERE f.list IN ('prune', 'held') GROUP BY f.sitemap_file_id, f.reason`;
