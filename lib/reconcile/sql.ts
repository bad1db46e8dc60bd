// The reconciliation as set-based SQL. Every statement works on whole sets (hash joins over the audit's
// partitions and the sets derived from them), never row by row, so the same code serves 2,000 URLs and
// 5,000,000. Rules and their precedence are documented in docs/reconciliation.md.
// Reasons that put a declared entry on the held list (unsafe to judge yet): the vocabulary's one list.
import { ADD_EXCLUSIONS } from '@/lib/findings/reasons';
import { HELD_REASONS } from '@/lib/findings/schema';
import { RESOURCE_EXTENSIONS } from '@/lib/urls/resource-path';

/** The host of a normalized key (`scheme://host/path?query`). */
const host = (key: string) => `split_part(${key}, '/', 3)`;
/** A page's section: host + first directory (`https://h/blog/post` → `h/blog`); pages at the top level
 * (`/about`, `/blog/`) are in the host's root section (`h/`). */
const section = (key: string) =>
  `split_part(${key}, '/', 3) || '/' || CASE WHEN split_part(${key}, '/', 5) = '' THEN '' ELSE split_part(${key}, '/', 4) END`;

/** A key as the near-duplicate test compares it: no scheme, no `www.`, no query or fragment, no final
 * `index.html` or trailing slash (`https://www.h/a/?x=1` → `h/a`); a home page has no `/` left. */
export const loosePath = (key: string) =>
  `regexp_replace(regexp_replace(split_part(split_part(${key}, '#', 1), '?', 1), '^[a-z][a-z0-9+.-]*://(www\\.)?', ''), '(/index\\.html?)?/*$', '')`;

/** A crawled host that is one the sitemap declares, or its www / non-www twin (Sets.dh holds both). */
const declaredHost = (h: string, n: Sets) => `(${h} IN (SELECT host FROM ${n.dh}))`;

/** Whether a crawled row is an HTML page: its content type says so, or it says nothing (Screaming Frog
 * leaves it empty for some images) and the URL's path does not name a resource file. Images, CSS, scripts and PDFs are resources, never pages to add. */
const isHtml = (contentType: string, url: string) =>
  `(CASE WHEN coalesce(btrim(${contentType}), '') = ''
         THEN lower(split_part(split_part(${url}, '#', 1), '?', 1)) !~ '\\.(${RESOURCE_EXTENSIONS})$'
         ELSE btrim(split_part(lower(${contentType}), ';', 1)) IN ('text/html', 'application/xhtml+xml') END)`;

/** Whether a crawl row (columns prefixed by `p`) is canonicalised to another URL: its canonical differs,
 * or the export says "Canonicalised" without naming one. */
const canonicalisedElsewhere = (p: string) =>
  `((${p}canonical_key IS NOT NULL AND ${p}canonical_key <> ${p}key) OR (${p}canonical_key IS NULL AND ${p}canonicalised))`;

/**
 * The relations a reconcile reads, named after the audit: the declared set d and the crawled set c (views
 * over the audit's partitions, or tables when keys repeat), and the sets derived from them once. They are
 * ordinary (unlogged) relations, not temporary ones, so that the sessions of a split reconcile share them;
 * the reconcile drops them when it ends (and an audit's deletion or next reconcile drops any left behind).
 */
export interface Sets {
  /** Declared keys, one row per key. */
  d: string;
  /** Crawled keys, one row per key. */
  c: string;
  /** Declared keys that repeat, with their counts (only when some do). */
  dk: string;
  /** Crawled keys that repeat (only when some do). */
  ck: string;
  /** Crawled pages the sitemap does not declare. */
  u: string;
  /** One undeclared crawled URL per loose key (the first), and whether every such URL names another
   * canonical. */
  cl: string;
  /** Sections the crawl reached. */
  sec: string;
  /** Each sitemap file's base for finding ids. */
  fo: string;
  /** Crawled keys that some crawled page redirects to or names as its canonical, with their status and
   * canonical (redirect targets' status, redirect/canonical conflicts, canonical chains). */
  rt: string;
  /** Declared keys that some crawled page names as its canonical. */
  cdk: string;
  /** Keys some crawled page redirects to or names as its canonical, and whether one names it canonical. */
  tg: string;
  /** Sections the sitemap declares URLs in (host + first directory, as `sec`). */
  ds: string;
  /** Hosts the sitemap declares URLs on (`declared`), and their www / non-www twins (the same site). */
  dh: string;
  /** Canonical patterns: canonicals shared by declared pages that are not near-duplicates of them (5 or
   * more, or any number when the canonical is a home page), with the count and three of the pages. */
  cp: string;
}

const SET_NAMES = [
  'd',
  'c',
  'dk',
  'ck',
  'u',
  'cl',
  'sec',
  'fo',
  'rt',
  'cdk',
  'ds',
  'dh',
  'cp',
  'tg',
] as const;

/** The unquoted relation names of an audit's sets (for the catalog), in the order above. */
export function setRelationNames(auditId: string): string[] {
  const hex = auditId.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not an audit id: ${auditId}`);
  return SET_NAMES.map((name) => `reconcile_${name}_${hex}`);
}

export function setNames(auditId: string): Sets {
  const names = setRelationNames(auditId);
  return Object.fromEntries(SET_NAMES.map((name, i) => [name, `"${names[i]}"`])) as unknown as Sets;
}

/** Declared keys, one row per key: the last occurrence (as the playbook's script keeps), with a count.
 * Duplicates are usually few: they are found with a hash aggregate and only they are sorted. */
export const declaredDuplicatesSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.dk} AS
SELECT key, count(*)::int AS n, array_agg(DISTINCT file_id ORDER BY file_id) AS file_ids
  FROM sitemap_entries WHERE audit_id = $1 AND key IS NOT NULL
 GROUP BY key HAVING count(*) > 1`;

export const declaredSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.d} AS
SELECT key, loose_key, loc, file_id, position, lastmod, 1 AS occurrences, '{}'::int[] AS file_ids
  FROM sitemap_entries e
 WHERE audit_id = $1 AND key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${n.dk} dk WHERE dk.key = e.key)
UNION ALL
SELECT * FROM (
  SELECT DISTINCT ON (e.key) e.key, e.loose_key, e.loc, e.file_id, e.position, e.lastmod, dk.n,
         CASE WHEN cardinality(dk.file_ids) > 1 THEN dk.file_ids ELSE '{}'::int[] END
    FROM sitemap_entries e JOIN ${n.dk} dk ON dk.key = e.key
   WHERE e.audit_id = $1
   ORDER BY e.key, e.file_id DESC, e.position DESC) last_of_duplicates`;

/** Without duplicate keys the partition itself is the declared set (no copy); views take no parameters,
 * so the audit id (a validated UUID) is inlined. */
export const declaredViewSql = (n: Sets, auditId: string) => `
CREATE VIEW ${n.d} AS
SELECT key, loose_key, loc, file_id, position, lastmod, 1 AS occurrences, '{}'::int[] AS file_ids
  FROM sitemap_entries WHERE audit_id = '${auditId}'::uuid AND key IS NOT NULL`;

export const crawledViewSql = (n: Sets, auditId: string) => `
CREATE VIEW ${n.c} AS
SELECT key, loose_key, url, line, status, canonical, canonical_key, indexable, noindex,
       blocked_by_robots, crawled_at, depth, redirect_url, redirect_key, content_type, inlinks, canonicalised
  FROM crawl_pages WHERE audit_id = '${auditId}'::uuid AND key IS NOT NULL`;

/** Crawled keys, one row per key: a 2xx row wins over a 3xx, over anything else; then the last line. */
export const crawledDuplicatesSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.ck} AS
SELECT key FROM crawl_pages WHERE audit_id = $1 AND key IS NOT NULL GROUP BY key HAVING count(*) > 1`;

export const crawledSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.c} AS
SELECT key, loose_key, url, line, status, canonical, canonical_key, indexable, noindex,
       blocked_by_robots, crawled_at, depth, redirect_url, redirect_key, content_type, inlinks, canonicalised
  FROM crawl_pages p
 WHERE audit_id = $1 AND key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${n.ck} ck WHERE ck.key = p.key)
UNION ALL
SELECT * FROM (
  SELECT DISTINCT ON (p.key) p.key, p.loose_key, p.url, p.line, p.status, p.canonical, p.canonical_key, p.indexable,
         p.noindex, p.blocked_by_robots, p.crawled_at, p.depth, p.redirect_url, p.redirect_key, p.content_type,
         p.inlinks, p.canonicalised
    FROM crawl_pages p JOIN ${n.ck} ck ON ck.key = p.key
   WHERE p.audit_id = $1
   ORDER BY p.key, CASE WHEN p.status BETWEEN 200 AND 299 THEN 0 WHEN p.status BETWEEN 300 AND 399 THEN 1 ELSE 2 END,
            p.line DESC) best_of_duplicates`;

/** Crawled pages the sitemap does not declare: the add list's candidates and the near matches' source. */
export const undeclaredSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.u} AS
SELECT c.* FROM ${n.c} c WHERE NOT EXISTS (SELECT 1 FROM ${n.d} d WHERE d.key = c.key)`;

/** Near matches: one undeclared crawled URL per loose key (the exact profile's url_variant rule; that
 * crawled URL is on the add list, so applying both lists fixes the sitemap). Empty for other profiles. */
export const looseSql = (n: Sets, exact: boolean) => `
CREATE UNLOGGED TABLE ${n.cl} AS
SELECT loose_key, coalesce(min(url) FILTER (WHERE status = 200), min(url)) AS url,
       -- The form offered as a replacement answers 200 when any does; else its status is known only when
       -- there is one form.
       CASE WHEN bool_or(status = 200) THEN 200 WHEN count(*) = 1 THEN max(status) END AS status,
       bool_and(${canonicalisedElsewhere('')}) AS canonicalised
  FROM ${n.u} WHERE ${exact ? 'loose_key IS NOT NULL' : 'false'} GROUP BY loose_key`;

/** Sections the crawl reached at all: every crawled host's root, and host + first path segment, from one
 * read of the crawl (two took 1.45 s of 1,000,000 pages, one 0.8 s). `complete`
 * turns false for a section the built-in crawler cut at a limit (reached, but not crawled completely). */
export const sectionsSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.sec} AS
WITH hs AS MATERIALIZED (SELECT split_part(key, '/', 3) AS h, split_part(key, '/', 4) AS s FROM ${n.c} GROUP BY 1, 2)
SELECT section, true AS complete FROM (SELECT h || '/' AS section FROM hs UNION SELECT h || '/' || s FROM hs) reached`;

/** Sections and hosts the sitemap declares URLs in: whether the crawl matches the sitemap at all
 * (crawlMatchSql), and which crawled pages are on the audit's site (the add list). */
export const declaredSectionsSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.ds} AS SELECT DISTINCT ${section('key')} AS section FROM ${n.d}`;

export const declaredHostsSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.dh} AS
SELECT h AS host, true AS declared FROM (SELECT DISTINCT split_part(section, '/', 1) AS h FROM ${n.ds}) s
UNION
SELECT CASE WHEN h LIKE 'www.%' THEN substr(h, 5) ELSE 'www.' || h END, false
  FROM (SELECT DISTINCT split_part(section, '/', 1) AS h FROM ${n.ds}) s`;

/** How many of the declared sections and hosts the crawl reached (sec holds every crawled host's root). */
export const crawlMatchSql = (n: Sets) => `
SELECT count(*)::int AS sections,
       count(*) FILTER (WHERE section IN (SELECT section FROM ${n.sec}))::int AS sections_reached,
       (SELECT count(*)::int FROM ${n.dh} WHERE declared) AS hosts,
       (SELECT count(*)::int FROM ${n.dh} WHERE declared AND host || '/' IN (SELECT section FROM ${n.sec})) AS hosts_reached
  FROM ${n.ds}`;

/** Whether a key may be a home page by loosePath (no `/` left): its path, all slashes, `index.html` or
 * `index.htm` aside, is empty. A cheap test with no regular expression, true for every home page (and for
 * any key without `://`, which it cannot judge): it narrows what loosePath has to look at. */
export const mayBeHome = (key: string) => {
  const url = `split_part(split_part(${key}, '#', 1), '?', 1)`;
  return `(strpos(${key}, '://') = 0 OR rtrim(substr(${url}, length(split_part(${url}, '/', 1)) + length(split_part(${url}, '/', 3)) + 3), '/') IN ('', '/index.html', '/index.htm'))`;
};

/** Canonical patterns (Sets.cp). A pattern of declared pages is one of crawled pages first: targets are
 * narrowed on the crawl alone (a small set), and only their pages are looked up in the declared set —
 * when none is left, the join ends before reading it (joining every canonicalised page with the declared
 * set cost 0.7 s of 200,000). The near-duplicate test (two regular expressions per key) runs only on the
 * pages of targets that could still be patterns: shared by 5 pages or more before the test (the test can
 * only remove pages), or maybe a home page: 1.9 s → 1.0 s on 1,000,000 crawled pages with 100,000
 * canonicalised (median of four runs each, interleaved). */
export const canonicalPatternsSql = (n: Sets) => {
  const isPattern = `count(*) >= ${CANONICAL_PATTERN_MIN} OR strpos(${loosePath('target')}, '/') = 0`;
  return `
CREATE UNLOGGED TABLE ${n.cp} AS
WITH x0 AS MATERIALIZED (
  SELECT key, canonical_key AS target FROM ${n.c}
   WHERE canonical_key IS NOT NULL AND canonical_key <> key AND status BETWEEN 200 AND 299 AND NOT blocked_by_robots),
t0 AS MATERIALIZED (
  SELECT target FROM x0 GROUP BY target HAVING count(*) >= ${CANONICAL_PATTERN_MIN} OR ${mayBeHome('target')}),
x AS MATERIALIZED (
  SELECT x0.key, x0.target FROM x0 JOIN t0 ON t0.target = x0.target
   WHERE ${loosePath('x0.target')} <> ${loosePath('x0.key')}),
t AS MATERIALIZED (SELECT target FROM x GROUP BY target HAVING ${isPattern})
SELECT x.target, count(*)::int AS n, (array_agg(d.loc ORDER BY d.key))[1:3] AS examples
  FROM x JOIN t ON t.target = x.target JOIN ${n.d} d ON d.key = x.key
 GROUP BY x.target
HAVING ${isPattern.replaceAll('target', 'x.target')}`;
};

/** Declared pages sharing one canonical that make it a pattern (any number when it is a home page). */
export const CANONICAL_PATTERN_MIN = 5;

/** The keys crawled pages redirect to or name as their canonical (another page's), one row each, and
 * whether some page names it as its canonical: collected once for both sets below (rt, cdk), which took
 * 3.6 s with the crawl read four times, 2.5 s with three (median of four runs each, interleaved). */
export const targetsSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.tg} AS
SELECT key, bool_or(canonical) AS canonical
  FROM (SELECT redirect_key AS key, false AS canonical FROM ${n.c} WHERE redirect_key IS NOT NULL
        UNION ALL
        SELECT canonical_key, true FROM ${n.c} WHERE canonical_key <> key) targets
 GROUP BY key`;

/** Redirect and canonical targets the crawl has, with their status ("redirects to a 404", "canonical
 * redirects") and canonical ("redirects to a page that canonicalises back"): usually far fewer than the
 * crawled pages, so the classification joins this small set instead of the whole crawl a second time. */
export const redirectTargetsSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.rt} AS
SELECT c.key, c.status, c.canonical_key FROM ${n.c} c JOIN ${n.tg} tg ON tg.key = c.key`;

/** Declared keys named as another page's canonical (is the canonical declared?), for the same reason. */
export const declaredCanonicalsSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.cdk} AS
SELECT d.key FROM ${n.d} d JOIN ${n.tg} tg ON tg.key = d.key AND tg.canonical`;

/** Statistics for the sets that are tables (views over partitions use the partitions' own). */
export function analyzeSql(tables: string[]): string {
  return tables.map((t) => `ANALYZE ${t}`).join('; ');
}

const FINDING_COLUMNS = `audit_id, id, list, reason, reasons, url, key, host, path, status, canonical, lastmod,
  sitemap_file_id, crawl_line, crawled_url, redirect_url, target_status, canonical_declared, variant_url, section,
  occurrences, indexable, noindex, blocked_by_robots, depth, crawled_at, inlinks, file_ids, canonical_status, signals,
  pattern_count, pattern_examples, variant_status`;

/** Finding ids without a sort: a declared finding's id is its entry's place in reading order (file base +
 * position), an add finding's id comes after all of those (base + crawl line). Ids are stable, unique and
 * follow the sitemap's order; they may have gaps. */
export const fileBasesSql = (n: Sets) => `
CREATE UNLOGGED TABLE ${n.fo} AS
SELECT file_id, (sum(maxpos) OVER (ORDER BY file_id) - maxpos)::int AS base, sum(maxpos) OVER ()::int AS total
  FROM (SELECT file_id, max(position) AS maxpos FROM sitemap_entries WHERE audit_id = $1 GROUP BY file_id) m`;

export interface ClassifyOptions {
  /** `hold` (default): a 5xx or 429 is held as `server_error`; `prune`: pruned as `http_<status>`. */
  serverErrors: 'hold' | 'prune';
  /** The crawl does not match the sitemap (mutations.ts: isCrawlMismatch): declared URLs it never reached
   * are held as `crawl_mismatch` instead of pruned as `unreached_by_crawl`. */
  crawlMismatch?: boolean;
}

/**
 * Prune and held findings. $1 audit, $2 exact profile?, $3 crawl time (nullable). Healthy matches are
 * dropped first (a cheap test), so the rest of the work scales with the findings, not the sitemap.
 * Every applicable rule is kept in `reasons`; the first is `reason`. Unmatched keys get exactly one of
 * url_variant, newer_than_crawl, section_not_crawled, unreached_by_crawl (in that order). Signals
 * (multi_file, redirect_canonical_conflict, canonical_chain, variant_canonicalised) are kept beside the reasons.
 * (OFFSET 0 keeps each level a separate step, so every expression is computed once per row.)
 */
export function declaredFindingsSql(
  n: Sets,
  part: string,
  ids?: 'below' | 'from',
  options: ClassifyOptions = { serverErrors: 'hold' },
): string {
  // When two sessions share the work, each takes the declared keys whose finding ids are below $4, or
  // from $4 on (each session writes its own part of the audit's findings, split at that id).
  const declared =
    ids === undefined
      ? `${n.d} d`
      : `(SELECT d.* FROM ${n.d} d JOIN ${n.fo} fo USING (file_id)
           WHERE fo.base + d.position ${ids === 'below' ? '<' : '>='} $4) d`;
  const serverError = `(a.status >= 500 OR a.status = 429)`;
  const statusReason =
    options.serverErrors === 'hold'
      ? `CASE WHEN ${serverError} THEN 'server_error' WHEN a.status >= 400 THEN 'http_' || a.status END`
      : `CASE WHEN a.status >= 400 THEN 'http_' || a.status END`;
  return `
INSERT INTO "${part}" (${FINDING_COLUMNS})
SELECT $1, b.id, CASE WHEN b.reasons[1] IN (${HELD_REASONS.map((r) => `'${r}'`).join(', ')}) THEN 'held' ELSE 'prune' END,
       b.reasons[1], b.reasons, b.loc, b.key, b.host, substr(b.key, length(split_part(b.key, '/', 1)) + length(b.host) + 3),
       b.status, b.canonical, b.lastmod, b.file_id, b.line, b.crawled_url, b.redirect_url, b.target_status,
       b.canonical_declared, b.variant_url, b.section, b.occurrences, b.indexable, b.noindex, b.blocked_by_robots,
       b.depth, NULL, b.inlinks, b.file_ids, b.canonical_status, b.signals, b.pattern_count, b.pattern_examples,
       b.variant_status
  FROM (
    SELECT a.*,
           CASE
             WHEN a.ckey IS NULL THEN ARRAY[CASE
               ${options.crawlMismatch ? `WHEN true THEN 'crawl_mismatch'` : ''}
               WHEN $2 AND a.variant_url IS NOT NULL THEN 'url_variant'
               WHEN $3::timestamptz IS NOT NULL AND a.lastmod > $3::timestamptz THEN 'newer_than_crawl'
               WHEN a.section NOT IN (SELECT section FROM ${n.sec} WHERE complete) THEN 'section_not_crawled'
               ELSE 'unreached_by_crawl' END]
             ELSE array_remove(ARRAY[
               CASE WHEN a.blocked_by_robots THEN 'blocked_by_robots' END,
               CASE WHEN NOT a.blocked_by_robots AND coalesce(a.status, 0) = 0 THEN 'no_response' END,
               ${statusReason},
               -- A canonical that redirects or fails, or a redirect whose target canonicalises back: the
               -- page is in a loop or a chain, a problem to fix before any URL of it is pruned or replaced.
               CASE WHEN NOT a.blocked_by_robots AND a.status BETWEEN 200 AND 399
                     AND ((a.elsewhere AND a.canonical_target IS NOT NULL AND a.canonical_status IS DISTINCT FROM 200)
                          OR a.target_canonical_key = a.ckey) THEN 'canonical_conflict' END,
               CASE WHEN a.pattern_count IS NOT NULL THEN 'canonical_pattern' END,
               CASE WHEN a.status IN (301, 302, 303, 307, 308) THEN 'redirects' END,
               CASE WHEN a.elsewhere THEN 'non_canonical' END,
               -- An explicit noindex always counts; "not indexable" alone only when nothing else explains it
               -- (Screaming Frog marks redirects and canonicalised pages Non-Indexable too) and on an HTML
               -- page (a PDF or an image in a sitemap that answers 200 is legitimate).
               CASE WHEN a.noindex OR (a.indexable = false AND a.status BETWEEN 200 AND 299
                                      AND NOT a.blocked_by_robots AND NOT a.elsewhere
                                      AND ${isHtml('a.content_type', 'a.crawled_url')}) THEN 'noindex' END
             ], NULL)
           END AS reasons,
           -- Most rows carry no signal: they get the empty array without building one.
           CASE WHEN cardinality(a.file_ids) > 1 OR a.target_canonical_key = a.ckey
                  OR (a.canonical_target IS NOT NULL AND a.canonical_status IS DISTINCT FROM 200)
                  OR (a.variant_url IS NOT NULL AND a.variant_canonicalised)
             THEN array_remove(ARRAY[
               CASE WHEN cardinality(a.file_ids) > 1 THEN 'multi_file' END,
               CASE WHEN a.target_canonical_key = a.ckey THEN 'redirect_canonical_conflict' END,
               CASE WHEN a.canonical_target IS NOT NULL AND a.canonical_status IS DISTINCT FROM 200
                    THEN 'canonical_chain' END,
               CASE WHEN a.variant_url IS NOT NULL AND a.variant_canonicalised THEN 'variant_canonicalised' END
             ], NULL)
             ELSE '{}'::text[] END AS signals
      FROM (
        SELECT d.key, d.loc, d.file_id, d.position, d.lastmod, d.occurrences, d.file_ids,
               fo.base + d.position AS id, ${host('d.key')} AS host,
               c.key AS ckey, c.url AS crawled_url, c.line, c.status, c.canonical, c.canonical_key, c.indexable,
               c.noindex, c.blocked_by_robots, c.depth, c.inlinks, c.redirect_url, c.content_type,
               ${canonicalisedElsewhere('c.')} AS elsewhere,
               t.status AS target_status, t.canonical_key AS target_canonical_key,
               ct.key AS canonical_target, ct.status AS canonical_status,
               CASE WHEN c.canonical_key <> d.key THEN c.canonical_key IN (SELECT key FROM ${n.cdk}) END AS canonical_declared,
               cl.url AS variant_url, cl.status AS variant_status, cl.canonicalised AS variant_canonicalised,
               -- A 2xx page canonicalised to a pattern's target, and not a near-duplicate of it.
               CASE WHEN cp.target IS NOT NULL AND NOT c.blocked_by_robots AND c.status BETWEEN 200 AND 299
                     AND ${loosePath('c.key')} <> ${loosePath('cp.target')} THEN cp.n END AS pattern_count,
               CASE WHEN cp.target IS NOT NULL AND NOT c.blocked_by_robots AND c.status BETWEEN 200 AND 299
                     AND ${loosePath('c.key')} <> ${loosePath('cp.target')} THEN cp.examples END AS pattern_examples,
               CASE WHEN c.key IS NULL THEN ${section('d.key')} END AS section
          FROM ${declared}
          JOIN ${n.fo} fo ON fo.file_id = d.file_id
          LEFT JOIN ${n.c} c ON c.key = d.key
          LEFT JOIN ${n.rt} t ON t.key = c.redirect_key
          LEFT JOIN ${n.rt} ct ON c.canonical_key <> c.key AND ct.key = c.canonical_key
          LEFT JOIN ${n.cl} cl ON c.key IS NULL AND cl.loose_key = d.loose_key
          LEFT JOIN ${n.cp} cp ON c.canonical_key <> c.key AND cp.target = c.canonical_key
         WHERE c.key IS NULL OR c.status IS DISTINCT FROM 200 OR c.blocked_by_robots OR c.noindex
            OR c.indexable = false OR c.canonicalised OR (c.canonical_key IS NOT NULL AND c.canonical_key <> d.key)
        OFFSET 0) a
    OFFSET 0) b
 WHERE cardinality(b.reasons) > 0`;
}

/** Add findings — crawled 200 HTML pages, indexable, self- or un-canonicalised, not declared — and, from
 * the same scan, what the rule left out among undeclared pages, by ADD_EXCLUSIONS. $1 audit. */
export function addFindingsSql(n: Sets, part: string): string {
  return `
WITH v AS MATERIALIZED (
  SELECT u.*, ${host('u.key')} AS host,
         CASE WHEN NOT ${declaredHost(host('u.key'), n)} THEN 'otherHost'
              WHEN u.blocked_by_robots THEN 'blocked'
              WHEN coalesce(u.status, 0) <> 200 THEN 'non200'
              WHEN NOT ${isHtml('u.content_type', 'u.url')} THEN 'nonHtml'
              WHEN ${canonicalisedElsewhere('u.')} THEN 'canonicalised'
              WHEN u.noindex OR u.indexable = false THEN 'noindex'
              ELSE 'add' END AS verdict
    FROM ${n.u} u),
added AS (
  INSERT INTO "${part}" (${FINDING_COLUMNS})
  SELECT $1, (SELECT coalesce(max(total), 0) FROM ${n.fo}) + v.line, 'add', 'reachable_not_declared',
         ARRAY['reachable_not_declared'], v.url, v.key, v.host, substr(v.key, length(split_part(v.key, '/', 1)) + length(v.host) + 3),
         v.status, v.canonical, NULL, NULL, v.line, NULL, NULL, NULL, NULL, NULL, NULL, NULL, v.indexable, NULL, NULL,
         v.depth, v.crawled_at, v.inlinks, '{}', NULL, '{}', NULL, NULL, NULL
    FROM v WHERE v.verdict = 'add')
-- (A data-modifying WITH clause always runs, whether or not the main query reads it.)
SELECT ${ADD_EXCLUSIONS.map((e) => `count(*) FILTER (WHERE verdict = '${e}')::int AS "${e}"`).join(', ')}
  FROM v`;
}

/** Sizes and times known before classifying (the crawl time decides newer_than_crawl). */
export const factsSql = (n: Sets) => `
SELECT (SELECT count(*)::int FROM ${n.d}) AS declared,
       (SELECT count(*)::int FROM ${n.c}) AS crawled,
       (SELECT max(crawled_at) FROM ${n.c}) AS latest_crawl,
       (SELECT max(lastmod) FROM ${n.d}) AS newest_lastmod`;

/** One pass over the findings: counts per (list, reason, decision, host), per (sitemap file, reason) and
 * per combination of signals. Rows with a null file_id are the first kind (by_list). */
export const aggregateSql = (part: string) => `
SELECT list, reason, decision, host, sitemap_file_id AS file_id, signals, count(*)::int AS n,
       GROUPING(sitemap_file_id) = 1 AND GROUPING(signals) = 1 AS by_list, GROUPING(signals) = 0 AS by_signals
  FROM "${part}"
 GROUP BY GROUPING SETS ((list, reason, decision, host), (list, sitemap_file_id, reason), (signals))`;

export const countsInsertSql = `
INSERT INTO finding_counts (audit_id, list, reason, decision, host, n)
SELECT $1, t.list, t.reason, t.decision, t.host, t.n
  FROM jsonb_to_recordset($2::jsonb) AS t(list text, reason text, decision text, host text, n int)`;

/** The hosts of the crawled pages the add list left out as another site's, most pages first, with one
 * URL of each (read only when there are some). */
export const otherHostsSql = (n: Sets) => `
SELECT host, count(*)::int AS n, min(url) AS example
  FROM (SELECT ${host('key')} AS host, url FROM ${n.u}) u
 WHERE NOT ${declaredHost('u.host', n)}
 GROUP BY host ORDER BY count(*) DESC, host LIMIT 10`;

/** Hosts, among those with unmatched declared URLs, that the crawl never visited at all. $1: hosts. */
export const hostsNotCrawledSql = (n: Sets) => `
SELECT coalesce(array_agg(h ORDER BY h), '{}') AS hosts
  FROM unnest($1::text[]) AS h WHERE NOT EXISTS (SELECT 1 FROM ${n.sec} sec WHERE sec.section = h || '/')`;
