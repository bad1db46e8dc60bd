// Shapes of the corrected sitemap set: the options a build takes (query string) and the before/after
// summary GET …/sitemap-set answers and summary.json holds.
import { z } from 'zod';

/** A sitemap file holds at most this many URLs (the protocol's limit). The sections layout closes its
 * files at 25,000 unless asked; the input layout splits a file only past the protocol's limit. */
export const MAX_URLS_LIMIT = 50_000;
export const DEFAULT_MAX_URLS = 25_000;

/** `input`: each file as read, changed only by the approved decisions; `sections`: regrouped by section. */
export const SET_LAYOUTS = ['input', 'sections'] as const;
export type SetLayout = (typeof SET_LAYOUTS)[number];

const blankIsAbsent = (v: unknown) => (v === '' ? undefined : v);

export const ZSitemapSetQuery = z
  .object({
    layout: z.preprocess(blankIsAbsent, z.enum(SET_LAYOUTS).default('input')),
    /** Gzip each sitemap file (sections layout; the input layout keeps each file's own compression) (`.xml.gz`); default yes. */
    gzip: z.preprocess(
      blankIsAbsent,
      z
        .enum(['1', 'true', '0', 'false'])
        .default('1')
        .transform((v) => v === '1' || v === 'true'),
    ),
    /** URLs per file; default 25,000 (sections) or 50,000 (input). */
    maxUrls: z.preprocess(blankIsAbsent, z.coerce.number().int().min(1).max(MAX_URLS_LIMIT).optional()),
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

/** What the set does to one file (input layout). */
export interface SetFileChange {
  /** Its name in the set (the first part's when it is split). */
  name: string;
  /** The file read: its URL or uploaded name; null for the additions' file. */
  source: string | null;
  /** `added`: the approved additions' file; `feed`/`unread`: a file the set does not rewrite. */
  kind: 'urlset' | 'text' | 'index' | 'added' | 'feed' | 'unread';
  /** `kept_as_is`: not in the zip, its index still lists it as declared (a feed, a file not read in full). */
  status: 'unchanged' | 'changed' | 'dropped' | 'new' | 'kept_as_is';
  /** Entries as read (an index: the children it listed). */
  entries: number;
  /** Entries written (an index: the children it lists). */
  urls: number;
  /** Entries an approved prune removes (an index: dropped children). */
  removed: number;
  /** Entries whose <loc> an approved url variant replaces. */
  replaced: number;
  added: number;
  /** The name it was read under, when the set must use another (a clash, an unsafe character). */
  renamedFrom: string | null;
  /** The files it is written as: more than one when split; none when dropped or kept as is. */
  parts: string[];
}

export interface SetWarning {
  /** renamed, dropped, split, not_listed, kept_as_is, read_before_markup. */
  code: string;
  message: string;
  files: string[];
}

export interface SitemapSetSection {
  /** The file names' stem: `products` for products-sitemap-1.xml.gz. */
  name: string;
  urls: number;
  files: number;
}

export interface SitemapSetSummaryDto {
  layout: SetLayout;
  /** Input layout: every file of the audit and what the set does to it (empty for sections). */
  files: SetFileChange[];
  /** What would break Search Console history or robots.txt lines, or is not applied (input layout). */
  warnings: SetWarning[];
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
  options: { layout: SetLayout; gzip: boolean; maxUrls: number; base: string };
}
