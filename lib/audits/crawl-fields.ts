// The crawl-export fields a user can map to CSV columns, and what to call each one on screen.
import type { CRAWL_FIELDS } from './schema';

export type CrawlField = (typeof CRAWL_FIELDS)[number];

export const CRAWL_FIELD_LABELS: Record<CrawlField, string> = {
  url: 'URL',
  status: 'HTTP status',
  canonical: 'Canonical URL',
  indexable: 'Indexable',
  noindex: 'Noindex',
  crawledAt: 'Crawled at',
  depth: 'Crawl depth',
  redirectUrl: 'Redirect URL',
  contentType: 'Content type',
  blockedByRobots: 'Blocked by robots.txt',
  inlinks: 'Inlinks',
};
