// COPY text lines for the bulk tables, and the facts a load learns on the way (row and key counts, key
// uniqueness, latest times). Pure: used on the main thread for sitemap entries and in the crawl thread.
import type { CrawlRow } from '@/lib/crawl/types';
import type { SitemapUrlEntry } from '@/lib/sitemap/types';
import { KeyTally } from '@/lib/urls/key-tally';
import { type NormalizationProfile, normalizeUrl, type UrlKeys, urlKeys } from '@/lib/urls/normalize';

const SPECIAL = /[\\\n\r\t\0]/;

/** Escapes one value for COPY's text format; null becomes \N. */
export function copyValue(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '\\N' : value.toISOString();
  // Only backslash, newline, carriage return and tab are special in the text format (NUL is invalid).
  if (!SPECIAL.test(value)) return value;
  return value
    .replace(/\0/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
}

export const ENTRY_COLUMNS = [
  'audit_id',
  'file_id',
  'position',
  'loc',
  'key',
  'loose_key',
  'lastmod_raw',
  'lastmod',
  'changefreq',
  'priority',
  'images',
  'videos',
  'news',
  'alternates',
] as const;

/** The COPY line of a sitemap entry (keys null: its loc is not a URL we can key). */
function entryLine(prefix: string, e: SitemapUrlEntry, keys: UrlKeys | null): string {
  return `${prefix}${e.position}\t${copyValue(e.loc)}\t${keys ? copyValue(keys.key) : '\\N'}\t${
    keys ? copyValue(keys.loose) : '\\N'
  }\t${copyValue(e.lastmodRaw)}\t${copyValue(e.lastmod)}\t${copyValue(e.changefreq)}\t${copyValue(e.priority)}\t${
    e.images
  }\t${e.videos}\t${e.news}\t${e.alternates}\n`;
}

/** What a load learnt about its rows' keys and times on the way through. */
export interface LoadFacts {
  /** Rows stored. */
  rows: number;
  /** Rows stored with a key. */
  keyed: number;
  /** Distinct keys when known for certain (see KeyTally), else null. */
  distinct: number | null;
  /** Newest lastmod (entries) or latest crawl time (crawl rows) among keyed rows. */
  latest: Date | null;
}

export class FactsTally {
  private readonly keys = new KeyTally();
  private latest = Number.NEGATIVE_INFINITY;
  private rows = 0;

  add(key: string | null, time: Date | null): void {
    this.rows++;
    if (key === null) return;
    this.keys.add(key);
    const t = time?.getTime() ?? Number.NaN;
    if (t > this.latest) this.latest = t;
  }

  facts(): LoadFacts {
    return {
      rows: this.rows,
      keyed: this.keys.count,
      distinct: this.keys.distinct,
      latest: Number.isFinite(this.latest) ? new Date(this.latest) : null,
    };
  }
}

export const CRAWL_COLUMNS = [
  'audit_id',
  'line',
  'url',
  'key',
  'loose_key',
  'status',
  'canonical',
  'canonical_key',
  'indexable',
  'noindex',
  'blocked_by_robots',
  'crawled_at',
  'depth',
  'redirect_url',
  'redirect_key',
  'content_type',
] as const;

/** Keys a canonical or redirect target (the reader already made it absolute); the common self-reference
 * reuses the page's own key instead of parsing the URL again. */
function relatedKey(
  value: string | null,
  pageUrl: string,
  pageKey: string | null,
  profile: NormalizationProfile,
) {
  if (value === null) return null;
  if (value === pageUrl) return pageKey;
  return normalizeUrl(value, profile);
}

/** The COPY line of a crawl row whose URL parsed. */
function crawlLine(prefix: string, row: CrawlRow, keys: UrlKeys, profile: NormalizationProfile): string {
  const key = keys.key;
  return `${prefix}${row.line}\t${copyValue(row.url)}\t${copyValue(key)}\t${copyValue(keys.loose)}\t${copyValue(
    row.status,
  )}\t${copyValue(row.canonical)}\t${copyValue(relatedKey(row.canonical, row.url, key, profile))}\t${copyValue(
    row.indexable,
  )}\t${copyValue(row.noindex)}\t${copyValue(row.blockedByRobots)}\t${copyValue(row.crawledAt)}\t${copyValue(
    row.depth,
  )}\t${copyValue(row.redirectUrl)}\t${copyValue(relatedKey(row.redirectUrl, row.url, key, profile))}\t${copyValue(
    row.contentType,
  )}\n`;
}

/** Encodes a batch of entries of one file. */
export function encodeEntries(
  prefix: string,
  entries: readonly SitemapUrlEntry[],
  profile: NormalizationProfile,
  tally: FactsTally,
): string {
  let chunk = '';
  for (const entry of entries) {
    const keys = urlKeys(entry.loc, profile);
    tally.add(keys?.key ?? null, entry.lastmod);
    chunk += entryLine(prefix, entry, keys);
  }
  return chunk;
}

/** Encodes a batch of crawl rows; rows whose URL does not parse are returned apart (they are rejected). */
export function encodeCrawlRows(
  prefix: string,
  rows: readonly CrawlRow[],
  profile: NormalizationProfile,
  tally: FactsTally,
): { text: string; written: number; invalid: CrawlRow[] } {
  let text = '';
  const invalid: CrawlRow[] = [];
  for (const row of rows) {
    const keys = urlKeys(row.url, profile);
    if (keys === null) {
      invalid.push(row);
      continue;
    }
    tally.add(keys.key, row.crawledAt);
    text += crawlLine(prefix, row, keys, profile);
  }
  return { text, written: rows.length - invalid.length, invalid };
}
