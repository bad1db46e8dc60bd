// The review indexes of an audit's findings partition (filters, sorts, search), built after the reconcile
// job has made the findings available (buildReviewIndexes in mutations.ts).

export function reviewIndexes(part: string): { name: string; definition: string }[] {
  const on = (name: string, columns: string, using = '') => ({
    name: `${part}_${name}`,
    definition: `ON "${part}" ${using}(${columns})`,
  });
  return [
    on('reason_idx', 'audit_id, list, reason, id'),
    on('decision_idx', 'audit_id, list, decision, id'),
    on('url_idx', 'audit_id, list, url, id'),
    on('lastmod_idx', 'audit_id, list, lastmod, id'),
    // Reasons and decisions cluster in real sitemaps (all the 404s under one old section): a sort over a
    // reason or decision filter gets an index of its own instead of filtering a sort-order scan.
    on('reason_url_idx', 'audit_id, list, reason, url, id'),
    on('reason_lastmod_idx', 'audit_id, list, reason, lastmod, id'),
    on('decision_url_idx', 'audit_id, list, decision, url, id'),
    on('decision_lastmod_idx', 'audit_id, list, decision, lastmod, id'),
    on('host_idx', 'audit_id, list, host, id'),
    // Covers what a filter-first page reads (sort keys), so a path filter never touches the table.
    {
      name: `${part}_path_idx`,
      definition: `ON "${part}" (audit_id, list, path text_pattern_ops) INCLUDE (id, url, lastmod)`,
    },
    on('url_trgm_idx', 'url gin_trgm_ops', 'USING gin '),
  ];
}
