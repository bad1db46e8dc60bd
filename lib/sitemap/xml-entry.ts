// The entry being read by the XML reader: collects the fields of one <url>, <sitemap>, RSS <item>
// or Atom <entry> and turns them into the yielded entry. One instance is reused for every entry.

import { parseRfc822Date, parseW3cDatetime } from './datetime';
import type { SitemapEntry, SitemapKind } from './types';
import { isAbsoluteHttpUrl } from './utils';

// What the text of the open child element is collected for.
export const NONE = 0;
export const LOC = 1;
export const LASTMOD = 2;
export const CHANGEFREQ = 3;
export const PRIORITY = 4;
export const RSS_LINK = 5;
export const RSS_GUID = 6;
export const RSS_PUBDATE = 7;
export const ATOM_UPDATED = 8;
export const ATOM_PUBLISHED = 9;

/** Fields whose value is a location: capped at the loc limit, and refused (not dropped) beyond it. */
export function isUrlField(field: number): boolean {
  return field === LOC || field === RSS_LINK || field === RSS_GUID;
}

/** Dates, changefreq and priority are short; a longer value is ignored rather than buffered. */
export const EXTRA_FIELD_MAX_CHARS = 256;

export class EntryDraft {
  isUrl = true;
  position = 0;
  line = 0;
  /** Whether any child element was opened; bare text only counts before the first one. */
  hasChild = false;
  bare = '';
  /** The bare text passed the loc limit (only a prefix is kept in `bare`). */
  bareTooLong = false;
  /** A prefix of a location that passed the loc limit: the entry is refused. */
  locTooLong: string | null = null;
  link = '';
  images = 0;
  videos = 0;
  news = 0;
  alternates = 0;
  private loc = '';
  private lastmodRaw: string | null = null;
  private fallbackDateRaw: string | null = null;
  private changefreq: string | null = null;
  private priority: number | null = null;
  private guid = '';

  start(isUrl: boolean, position: number, line: number): void {
    this.isUrl = isUrl;
    this.position = position;
    this.line = line;
    this.hasChild = false;
    this.bare = '';
    this.bareTooLong = false;
    this.locTooLong = null;
    this.link = '';
    this.images = 0;
    this.videos = 0;
    this.news = 0;
    this.alternates = 0;
    this.loc = '';
    this.lastmodRaw = null;
    this.fallbackDateRaw = null;
    this.changefreq = null;
    this.priority = null;
    this.guid = '';
  }

  /** Stores the trimmed text of a field; the first non-empty occurrence of each field wins. */
  assign(field: number, value: string): void {
    if (value === '') return;
    if (field === LOC) {
      if (this.loc === '') this.loc = value;
    } else if (field === LASTMOD || field === RSS_PUBDATE || field === ATOM_UPDATED) {
      this.lastmodRaw ??= value;
    } else if (field === CHANGEFREQ) {
      this.changefreq ??= value;
    } else if (field === PRIORITY) {
      if (this.priority === null) {
        const priority = Number(value);
        this.priority = Number.isFinite(priority) ? priority : null;
      }
    } else if (field === RSS_LINK) {
      if (this.link === '') this.link = value;
    } else if (field === RSS_GUID) {
      if (this.guid === '') this.guid = value;
    } else if (field === ATOM_PUBLISHED) {
      this.fallbackDateRaw ??= value;
    }
  }

  /** The declared location, or '' when there is none. */
  declaredLoc(kind: SitemapKind): string {
    if (kind === 'rss') {
      // crawler-commons asserts a URL-shaped guid is used even with isPermaLink="false".
      return this.link !== '' ? this.link : isAbsoluteHttpUrl(this.guid) ? this.guid : '';
    }
    return kind === 'atom' ? this.link : this.loc;
  }

  toEntry(kind: SitemapKind, loc: string, extra: string | null = null): SitemapEntry {
    // Atom 0.3 feeds often carry only <issued>; a publication date beats no date at all.
    const lastmodRaw = kind === 'atom' ? (this.lastmodRaw ?? this.fallbackDateRaw) : this.lastmodRaw;
    const lastmod =
      lastmodRaw === null
        ? null
        : kind === 'rss'
          ? parseRfc822Date(lastmodRaw)
          : parseW3cDatetime(lastmodRaw);
    if (!this.isUrl) {
      return { type: 'sitemap', loc, lastmodRaw, lastmod, position: this.position, line: this.line };
    }
    return {
      type: 'url',
      loc,
      lastmodRaw,
      lastmod,
      changefreq: this.changefreq,
      priority: this.priority,
      images: this.images,
      videos: this.videos,
      news: this.news,
      alternates: this.alternates,
      extra,
      position: this.position,
      line: this.line,
    };
  }
}
