// What `POST /api/v1/audits` takes as `crawler` (JSON, or its JSON text in multipart), and its defaults.
// Isomorphic: the route, the New audit form and the worker read the same rules.
import { z } from 'zod';
import { zHttpUrl } from '@/lib/core/text';
import type { CrawlerSettings, CrawlProgress } from '@/lib/crawler/types';

export const CRAWLER_DEFAULTS = {
  mode: 'site',
  maxPages: 50_000,
  maxDepth: 10,
  concurrencyPerHost: 2,
  render: false,
} as const;

/** The most a user may ask for; a host is never sent more at once. */
export const CRAWLER_LIMITS = { maxPages: 1_000_000, maxDepth: 100, concurrencyPerHost: 8 } as const;

const startUrl = zHttpUrl();

export const ZCrawlerRequest = z
  .object({
    mode: z.enum(['site', 'list']).default(CRAWLER_DEFAULTS.mode),
    startUrl: startUrl.optional(),
    maxPages: z.number().int().min(1).max(CRAWLER_LIMITS.maxPages).default(CRAWLER_DEFAULTS.maxPages),
    maxDepth: z.number().int().min(0).max(CRAWLER_LIMITS.maxDepth).default(CRAWLER_DEFAULTS.maxDepth),
    concurrencyPerHost: z
      .number()
      .int()
      .min(1)
      .max(
        CRAWLER_LIMITS.concurrencyPerHost,
        `at most ${CRAWLER_LIMITS.concurrencyPerHost} requests at once per host`,
      )
      .default(CRAWLER_DEFAULTS.concurrencyPerHost),
    render: z.boolean().default(CRAWLER_DEFAULTS.render),
  })
  .strict();
export type TCrawlerRequest = z.input<typeof ZCrawlerRequest>;

/** The settings an audit stores (options.crawler): the request with its defaults filled in. */
export type TCrawlerSettings = z.output<typeof ZCrawlerRequest>;

/** The stored settings as the crawler takes them: a list crawl has no start URL (null, not absent). */
export function crawlerSettingsOf(stored: TCrawlerSettings): CrawlerSettings {
  return { ...stored, startUrl: stored.startUrl ?? null };
}

/** What the audit's DTO says of its built-in crawl (`crawl.crawler`); null for an audit given an export. */
export interface CrawlerDto {
  settings: CrawlerSettings;
  /** The totals of the last flush; null before the crawl starts. */
  progress: CrawlProgress | null;
}
