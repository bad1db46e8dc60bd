// Shapes of the corrected sitemap set: the options a build takes (query string) and the before/after
// summary GET …/sitemap-set answers and summary.json holds.
import { z } from 'zod';

/** A sitemap file holds at most this many URLs (the protocol's limit); 25,000 unless asked. */
export const MAX_URLS_LIMIT = 50_000;
export const DEFAULT_MAX_URLS = 25_000;

const blankIsAbsent = (v: unknown) => (v === '' ? undefined : v);

export const ZSitemapSetQuery = z
  .object({
    /** Gzip each sitemap file (`.xml.gz`); default yes. */
    gzip: z.preprocess(
      blankIsAbsent,
      z
        .enum(['1', 'true', '0', 'false'])
        .default('1')
        .transform((v) => v === '1' || v === 'true'),
    ),
    maxUrls: z.preprocess(
      blankIsAbsent,
      z.coerce.number().int().min(1).max(MAX_URLS_LIMIT).default(DEFAULT_MAX_URLS),
    ),
    /** Where the files will be served: the index's <loc>s are this URL plus each file's name. */
    base: z.preprocess(
      blankIsAbsent,
      z
        .string()
        .max(1000)
        .refine((v) => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(v) && URL.canParse(v), {
          message: 'base must be an absolute http(s) URL without query or fragment',
        })
        .transform((v) => (v.endsWith('/') ? v : `${v}/`))
        .optional(),
    ),
  })
  .strict();
export type TSitemapSetQuery = z.infer<typeof ZSitemapSetQuery>;

export interface SitemapSetSection {
  /** The file names' stem: `products` for products-sitemap-1.xml.gz. */
  name: string;
  urls: number;
  files: number;
}

export interface SitemapSetSummaryDto {
  before: {
    /** Declared <url> entries, every occurrence. */
    entries: number;
    /** Sitemap files (url sets) that declared them. */
    files: number;
  };
  /** Entries left out, by the approved prune row's reason; `not_a_url`: a loc the audit could not read as a URL. */
  removed: Record<string, number>;
  /** Approved url_variant entries written as their crawled URL. */
  replaced: number;
  /** Approved add rows. */
  added: number;
  /** Candidates that were the same URL as another (repeated entries, a replacement or an addition already declared). */
  duplicates: number;
  after: {
    urls: number;
    /** Sitemap files, without the index (a file also closes at 50 MiB, which only very long URLs reach). */
    files: number;
    sections: SitemapSetSection[];
    /** Sections beyond the first 200 (by size), counted only. */
    moreSections: number;
  };
  options: { gzip: boolean; maxUrls: number; base: string };
}
