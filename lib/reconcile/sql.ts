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

const FINDING_COLUMNS = `audit_id, id, list, reason, reasons, url, key, host, path, status, canonical, lastmod,
  sitemap_file_id, crawl_line, crawled_url, redirect_url, target_status, canonical_declared, variant_url, section,
  occurrences, indexable, noindex, blocked_by_robots, depth, crawled_at`;

/**
 * Prune and held findings. $1 audit, $2 exact profile?, $3 crawl time (nullable). Healthy matches are
 * dropped first (a cheap test), so the rest of the work scales with the findings, not the sitemap.
 * Every applicable rule is kept in `reasons`; the first is `reason`. Unmatched keys get exactly one of
 * url_variant, newer_than_crawl, section_not_crawled, unreached_by_crawl (in that order).
 */
export function declaredFindingsSql(part: string): string {
  return `
WITH j AS MATERIALIZED (
  SELECT d.key, d.loose_key, d.loc, d.file_id, d.position, d.lastmod, d.occurrences,
         c.key AS ckey, c.url AS crawled_url, c.line, c.status, c.canonical, c.canonical_key, c.indexable,
         c.noindex, c.blocked_by_robots, c.depth, c.redirect_url, c.redirect_key
    FROM d LEFT JOIN c ON c.key = d.key
   WHERE c.key IS NULL OR c.status IS DISTINCT FROM 200 OR c.blocked_by_robots OR c.noindex
      OR c.indexable = false OR (c.canonical_key IS NOT NULL AND c.canonical_key <> d.key)
),
u AS MATERIALIZED (
  SELECT j.key, ${section('j.key')} AS section FROM j WHERE j.ckey IS NULL
),
r AS MATERIALIZED (
  SELECT j.*, ${host('j.key')} AS host, t.status AS target_status,
         CASE WHEN j.canonical_key <> j.key THEN cd.key IS NOT NULL END AS canonical_declared,
         cl.url AS variant_url, u.section,
         CASE
           WHEN j.ckey IS NULL THEN ARRAY[CASE
             WHEN $2 AND cl.url IS NOT NULL THEN 'url_variant'
             WHEN $3::timestamptz IS NOT NULL AND j.lastmod > $3::timestamptz THEN 'newer_than_crawl'
             WHEN sec.section IS NULL THEN 'section_not_crawled'
             ELSE 'unreached_by_crawl' END]
           ELSE array_remove(ARRAY[
             CASE WHEN j.blocked_by_robots THEN 'blocked_by_robots' END,
             CASE WHEN NOT j.blocked_by_robots AND coalesce(j.status, 0) = 0 THEN 'no_response' END,
             CASE WHEN j.status >= 400 THEN 'http_' || j.status END,
             CASE WHEN j.status IN (301, 302, 303, 307, 308) THEN 'redirects' END,
             CASE WHEN j.canonical_key IS NOT NULL AND j.canonical_key <> j.key THEN 'non_canonical' END,
             -- An explicit noindex always counts; "not indexable" alone only when nothing else explains it
             -- (Screaming Frog marks redirects and canonicalised pages Non-Indexable too).
             CASE WHEN j.noindex OR (j.indexable = false AND j.status BETWEEN 200 AND 299
                                    AND NOT j.blocked_by_robots
                                    AND (j.canonical_key IS NULL OR j.canonical_key = j.key)) THEN 'noindex' END
           ], NULL)
         END AS reasons
    FROM j
    LEFT JOIN c t ON t.key = j.redirect_key
    LEFT JOIN d cd ON cd.key = j.canonical_key AND j.canonical_key <> j.key
    LEFT JOIN u ON u.key = j.key
    LEFT JOIN cl ON j.ckey IS NULL AND cl.loose_key = j.loose_key
    LEFT JOIN sec ON sec.section = u.section
)
INSERT INTO "${part}" (${FINDING_COLUMNS})
SELECT $1, row_number() OVER (ORDER BY r.reasons[1] IN ('newer_than_crawl', 'section_not_crawled'), r.file_id, r.position),
       CASE WHEN r.reasons[1] IN ('newer_than_crawl', 'section_not_crawled') THEN 'held' ELSE 'prune' END,
       r.reasons[1], r.reasons, r.loc, r.key, r.host, substr(r.key, length(split_part(r.key, '/', 1)) + length(r.host) + 3),
       r.status, r.canonical, r.lastmod, r.file_id, r.line, r.crawled_url, r.redirect_url, r.target_status,
       r.canonical_declared, r.variant_url, r.section, r.occurrences, r.indexable, r.noindex, r.blocked_by_robots,
       r.depth, NULL
  FROM r WHERE cardinality(r.reasons) > 0`;
}

/** Add findings: crawled 200, indexable, self- or un-canonicalised, not declared. $1 audit, $2 first id. */
export function addFindingsSql(part: string): string {
  return `
INSERT INTO "${part}" (${FINDING_COLUMNS})
SELECT $1, $2::int - 1 + row_number() OVER (ORDER BY a.line), 'add', 'reachable_not_declared',
       ARRAY['reachable_not_declared'], a.url, a.key, a.host, substr(a.key, length(split_part(a.key, '/', 1)) + length(a.host) + 3),
       a.status, a.canonical, NULL, NULL, a.line, NULL, NULL, NULL, NULL, NULL, NULL, NULL, a.indexable, NULL, NULL,
       a.depth, a.crawled_at
  FROM (SELECT c.*, ${host('c.key')} AS host FROM c
         WHERE c.status = 200 AND c.indexable IS DISTINCT FROM false AND NOT c.noindex AND NOT c.blocked_by_robots
           AND (c.canonical_key IS NULL OR c.canonical_key = c.key)
           AND NOT EXISTS (SELECT 1 FROM d WHERE d.key = c.key)) a`;
}

/** What the add rule left out, among crawled pages the sitemap does not declare. */
export const addExcludedSql = `
SELECT count(*) FILTER (WHERE coalesce(c.status, 0) <> 200 OR c.blocked_by_robots)::int AS non200,
       count(*) FILTER (WHERE c.status = 200 AND NOT c.blocked_by_robots AND (c.noindex OR c.indexable = false))::int AS noindex,
       count(*) FILTER (WHERE c.status = 200 AND NOT c.blocked_by_robots AND NOT c.noindex
                          AND c.indexable IS DISTINCT FROM false
                          AND c.canonical_key IS NOT NULL AND c.canonical_key <> c.key)::int AS canonicalised
  FROM c WHERE NOT EXISTS (SELECT 1 FROM d WHERE d.key = c.key)`;

/** Sizes and times known before classifying (the crawl time decides newer_than_crawl). */
export const factsSql = `
SELECT (SELECT count(*)::int FROM d) AS declared,
       (SELECT count(*)::int FROM c) AS crawled,
       (SELECT max(crawled_at) FROM c) AS latest_crawl,
       (SELECT max(lastmod) FROM d) AS newest_lastmod`;

/** Facts read from the findings: declared keys without a crawl row, and hosts the crawl never visited
 * (all of whose entries are necessarily unmatched findings). */
export const afterFactsSql = (part: string) => `
SELECT (SELECT count(*)::int FROM "${part}"
         WHERE list <> 'add' AND reason IN ('unreached_by_crawl', 'url_variant', 'newer_than_crawl', 'section_not_crawled')) AS unmatched,
       (SELECT coalesce(array_agg(h ORDER BY h), '{}') FROM (
          SELECT DISTINCT host AS h FROM "${part}"
           WHERE list <> 'add' AND crawl_line IS NULL AND NOT EXISTS (SELECT 1 FROM sec WHERE sec.section = host || '/')) hs
       ) AS hosts_not_crawled`;

export const countsSql = (part: string) => `
INSERT INTO finding_counts (audit_id, list, reason, decision, n)
SELECT $1, list, reason, decision, count(*)::int FROM "${part}" GROUP BY list, reason, decision`;

/** Prune and held reasons per sitemap file, largest first (chart data). */
export const byFileSql = (part: string) => `
SELECT f.sitemap_file_id AS file_id, f.reason, count(*)::int AS n
  FROM "${part}" f WHERE f.list IN ('prune', 'held') GROUP BY f.sitemap_file_id, f.reason`;
