// "The current Search Console state of each URL key" of an audit, as one SQL query every read shares (the
// per-sitemap gap table, the findings' Search Console column, the cross-reference), so they never disagree
// on how several imports merge. Pure: it only builds SQL text; the data modules run it.

/**
 * A SELECT of one row per key of the audit: `key, url, state ('indexed' | 'not_indexed'), reason, bucket,
 * last_crawled, scope, source ('drilldown' | 'performance'), import_id, imported_at`. Use it as a subquery:
 * `FROM (${currentGscStatesSql('$1')}) g`, with the audit id bound to `auditParam`.
 *
 * The merge rule (docs/search-console.md "Current state of a URL"):
 * - only imports that succeeded count (a failed import stores no rows anyway);
 * - the latest import (by when it was created, then id) that lists a key decides its state: a later
 *   drilldown supersedes an older one, whatever either said;
 * - within one import a key listed twice keeps not_indexed over indexed (a drilldown of an issue says more
 *   than a Performance row with impressions, which may be older), otherwise the first listing (by export,
 *   then line) and so its reason;
 * - URLs whose key could not be computed (not an http(s) URL) are left out: they join nothing.
 */
export function currentGscStatesSql(auditParam: string): string {
  return `SELECT DISTINCT ON (s.key)
         s.key, s.url, s.state, s.reason, s.bucket, s.last_crawled, s.scope, s.source,
         s.import_id, i.created_at AS imported_at
    FROM gsc_url_states s
    JOIN gsc_imports i ON i.id = s.import_id AND i.status = 'succeeded'
   WHERE s.audit_id = ${auditParam}::uuid AND s.key IS NOT NULL
   ORDER BY s.key, i.created_at DESC, i.id DESC, (s.state = 'not_indexed') DESC, s.export_index, s.line`;
}
