// "The current Search Console state of each URL key" of an audit, as one SQL query every read shares (the
// per-sitemap gap table, the findings' Search Console column, the cross-reference), so they never disagree
// on how several imports merge. Pure: it only builds SQL text; the data modules run it.

/**
 * A SELECT of one row per key of the audit: `key, url, state ('indexed' | 'not_indexed'), reason, bucket,
 * last_crawled, scope, source ('drilldown' | 'performance' | 'inspection'), import_id (the import's, or the
 * inspection run's id), imported_at (when the import was made, or the URL inspected), sampled (the key was
 * inspected)`. Use it as a subquery: `FROM (${currentGscStatesSql('$1')}) g`, with the audit id bound to
 * `auditParam`.
 *
 * The merge rule (docs/search-console.md "Current state of a URL"):
 * - only imports that succeeded count (a failed import stores no rows anyway);
 * - the latest import (by when it was created, then id) that lists a key decides its state: a later
 *   drilldown supersedes an older one, whatever either said;
 * - within one import a key listed twice keeps not_indexed over indexed (a drilldown of an issue says more
 *   than a Performance row with impressions, which may be older), otherwise the first listing (by export,
 *   then line) and so its reason;
 * - a URL Inspection answer with a state (the latest for the key) wins over the imports when it is newer
 *   than the import that decided them: it is what Google said last; `sampled` marks every inspected key
 *   (the sample the gap estimate is taken over), whichever source gave its state;
 * - URLs whose key could not be computed (not an http(s) URL) are left out: they join nothing.
 */
export function currentGscStatesSql(auditParam: string): string {
  return `WITH imp AS (
    SELECT DISTINCT ON (s.key)
           s.key, s.url, s.state, s.reason, s.bucket, s.last_crawled, s.scope, s.source,
           s.import_id, i.created_at AS imported_at
      FROM gsc_url_states s
      JOIN gsc_imports i ON i.id = s.import_id AND i.status = 'succeeded'
     WHERE s.audit_id = ${auditParam}::uuid AND s.key IS NOT NULL
     ORDER BY s.key, i.created_at DESC, i.id DESC, (s.state = 'not_indexed') DESC, s.export_index, s.line),
  ins AS (
    SELECT DISTINCT ON (key)
           key, url, state, coverage_state AS reason, bucket, last_crawl_time::date AS last_crawled,
           NULL::text AS scope, 'inspection'::text AS source, run_id AS import_id, inspected_at AS imported_at
      FROM gsc_inspections
     WHERE audit_id = ${auditParam}::uuid AND key IS NOT NULL AND state IS NOT NULL
     ORDER BY key, inspected_at DESC, run_id, position)
  SELECT COALESCE(ins.key, imp.key) AS key,
         CASE WHEN w.newer THEN ins.url ELSE imp.url END AS url,
         CASE WHEN w.newer THEN ins.state ELSE imp.state END AS state,
         CASE WHEN w.newer THEN ins.reason ELSE imp.reason END AS reason,
         CASE WHEN w.newer THEN ins.bucket ELSE imp.bucket END AS bucket,
         CASE WHEN w.newer THEN ins.last_crawled ELSE imp.last_crawled END AS last_crawled,
         CASE WHEN w.newer THEN ins.scope ELSE imp.scope END AS scope,
         CASE WHEN w.newer THEN ins.source ELSE imp.source END AS source,
         CASE WHEN w.newer THEN ins.import_id ELSE imp.import_id END AS import_id,
         CASE WHEN w.newer THEN ins.imported_at ELSE imp.imported_at END AS imported_at,
         ins.key IS NOT NULL AS sampled
    FROM imp FULL JOIN ins ON ins.key = imp.key
   CROSS JOIN LATERAL (SELECT ins.key IS NOT NULL AND (imp.key IS NULL OR ins.imported_at > imp.imported_at) AS newer) w`;
}
