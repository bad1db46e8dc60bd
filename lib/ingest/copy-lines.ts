// COPY text lines for the bulk tables, and the facts a load learns on the way (row and key counts, key
// uniqueness, latest times). Pure: used on the main thread for sitemap entries and in the crawl thread.
import type { CrawlRow } from '@/lib/crawl/types';
import type { SitemapUrlEntry } from '@/lib/sitemap/types';
import { KeyTally } from '@/lib/urls/key-tally';
import { type NormalizationProfile, normalizeUrl, type UrlKeys, urlKeys } from '@/lib/urls/normalize';

const SPECIAL = /[\\\n\r\t\0]/;

/** Escapes text for COPY's text format. Only backslash, newline, carriage return and tab are special
 * (NUL is invalid and dropped). */
function escapeText(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value
    .replace(/\0/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
}

// The hot loops below call these type-specific encoders (a million rows, a dozen fields each): one
// generic function that tests every type was the single largest cost of encoding.
const text = (value: string | null): string => (value === null ? '\\N' : escapeText(value));
const int = (value: number | null): string =>
  value === null || !Number.isFinite(value) ? '\\N' : String(value);
const bool = (value: boolean | null): string => (value === null ? '\\N' : value ? 't' : 'f');

// Timestamps repeat (a sitemap's lastmods share a few days; a crawl's times a few seconds), and
// toISOString is slow: remember the recent ones.
const isoCache = new Map<number, string>();
function timestamp(value: Date | null): string {
  if (value === null) return '\\N';
  const ms = value.getTime();
  if (Number.isNaN(ms)) return '\\N';
  let iso = isoCache.get(ms);
  if (iso === undefined) {
    iso = value.toISOString();
    if (isoCache.size >= 50_000) isoCache.clear();
    isoCache.set(ms, iso);
  }
  return iso;
}

/** Escapes one value of any type for COPY's text format; null becomes \N. */
export function copyValue(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return int(value);
  if (typeof value === 'boolean') return bool(value);
  if (value instanceof Date) return timestamp(value);
  return escapeText(value);
}

// The audit id is not in the lines: the audit's partition has it as its column default (lib/db/partitions.ts),
// 37 bytes less to encode, send and parse per row.
export const ENTRY_COLUMNS = [
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
  'extra',
] as const;

/** The COPY line of a sitemap entry (keys null: its loc is not a URL we can key). */
function entryLine(prefix: string, e: SitemapUrlEntry, keys: UrlKeys | null): string {
  return `${prefix}${e.position}\t${escapeText(e.loc)}\t${keys ? escapeText(keys.key) : '\\N'}\t${
    keys ? escapeText(keys.loose) : '\\N'
  }\t${text(e.lastmodRaw)}\t${timestamp(e.lastmod)}\t${text(e.changefreq)}\t${int(e.priority)}\t${
    e.images
  }\t${e.videos}\t${e.news}\t${e.alternates}\t${e.extra ? escapeText(e.extra) : '\\N'}\n`;
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
  'inlinks',
  'canonicalised',
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
function crawlLine(row: CrawlRow, keys: UrlKeys, profile: NormalizationProfile): string {
  const key = keys.key;
  return `${row.line}\t${escapeText(row.url)}\t${escapeText(key)}\t${escapeText(keys.loose)}\t${int(
    row.status,
  )}\t${text(row.canonical)}\t${text(relatedKey(row.canonical, row.url, key, profile))}\t${bool(
    row.indexable,
  )}\t${bool(row.noindex)}\t${bool(row.blockedByRobots)}\t${timestamp(row.crawledAt)}\t${int(
    row.depth,
  )}\t${text(row.redirectUrl)}\t${text(relatedKey(row.redirectUrl, row.url, key, profile))}\t${text(
    row.contentType,
  )}\t${int(row.inlinks)}\t${bool(row.canonicalised)}\n`;
}

/** Encodes a batch of entries of one file (`prefix`: the file id and a tab). */
export function encodeEntries(
  prefix: string,
  entries: readonly SitemapUrlEntry[],
  profile: NormalizationProfile,
  tally: FactsTally,
): string {
  const lines = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as SitemapUrlEntry;
    const keys = urlKeys(entry.loc, profile);
    tally.add(keys?.key ?? null, entry.lastmod);
    lines[i] = entryLine(prefix, entry, keys);
  }
  // One flat string (+= would build a rope that the socket write has to flatten again).
  return lines.join('');
}

/** Encodes a batch of crawl rows; rows whose URL does not parse are returned apart (they are rejected). */
export function encodeCrawlRows(
  rows: readonly CrawlRow[],
  profile: NormalizationProfile,
  tally: FactsTally,
): { text: string; written: number; invalid: CrawlRow[] } {
  const lines: string[] = [];
  const invalid: CrawlRow[] = [];
  for (const row of rows) {
    const keys = urlKeys(row.url, profile);
    if (keys === null) {
      invalid.push(row);
      continue;
    }
    tally.add(keys.key, row.crawledAt);
    lines.push(crawlLine(row, keys, profile));
  }
  return { text: lines.join(''), written: lines.length, invalid };
}
