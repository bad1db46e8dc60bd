// The review indexes of an audit's findings partition (filters, sorts, search), built after the reconcile
// job has made the findings available (buildReviewIndexes in mutations.ts).

import { declaringFiles } from './filter-sql';

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
    // Sorts by status, depth and inlinks. Measured on 1,000,000 findings (a 720,000-row prune list): a first
    // page took 750-1,050 ms without them (a top-N sort of the whole list), 3-12 ms with them; each takes
    // 4-6 s of the build and 51 MB.
    on('status_idx', 'audit_id, list, status, id'),
    on('depth_idx', 'audit_id, list, depth, id'),
    on('inlinks_idx', 'audit_id, list, inlinks, id'),
    // The file and signal filters (filter-sql.ts): every declaring file of a row, and its signals. Without
    // them a count was a scan (320 ms) and a page 450-800 ms; with them 15-60 ms (about 1 s and 1.5 MB each).
    on('files_idx', `(${declaringFiles()})`, 'USING gin '),
    on('signals_idx', 'signals', 'USING gin '),
    // Covers what a filter-first page reads (sort keys), so a path filter never touches the table.
    {
      name: `${part}_path_idx`,
      definition: `ON "${part}" (audit_id, list, path text_pattern_ops) INCLUDE (id, url, lastmod)`,
    },
    on('url_trgm_idx', 'url gin_trgm_ops', 'USING gin '),
  ];
}
