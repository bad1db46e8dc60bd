// A finding row as the reads return it, for tests: every fact absent unless given.
import type { FindingRow } from '@/lib/findings/types';

export function findingRow(overrides: Partial<FindingRow> = {}): FindingRow {
  return {
    id: 1,
    url: 'https://example.com/a',
    list: 'prune',
    reason: 'unreached_by_crawl',
    reasons: ['unreached_by_crawl'],
    status: null,
    crawled_url: null,
    redirect_url: null,
    target_status: null,
    canonical_declared: null,
    variant_url: null,
    section: null,
    occurrences: null,
    indexable: null,
    noindex: null,
    blocked_by_robots: null,
    depth: null,
    crawled_at: null,
    canonical: null,
    lastmod: null,
    sitemap_file_id: null,
    file_url: null,
    file_upload_name: null,
    decision: 'pending',
    decided_by: null,
    decided_at: null,
    note: null,
    ...overrides,
  };
}
