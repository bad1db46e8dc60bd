// Shapes shared by the sitemap parser, robots.txt reader and their callers.
// Everything here is plain data so entries can be streamed straight into COPY rows.

export type SitemapKind = 'urlset' | 'index' | 'text' | 'rss' | 'atom';

export interface SitemapUrlEntry {
  type: 'url';
  /** Trimmed, entities/CDATA decoded, otherwise exactly as declared (not normalised, not validated). */
  loc: string;
  lastmodRaw: string | null;
  /** Parsed W3C datetime (RFC 822 for RSS); date-only means UTC midnight; null if absent or invalid. */
  lastmod: Date | null;
  changefreq: string | null;
  /** Null if absent or not a number. */
  priority: number | null;
  images: number;
  videos: number;
  news: number;
  alternates: number;
  /** The <url>'s children serialised as XML in document order (every element, attribute and non-blank
   * text), when it holds anything but loc, lastmod, changefreq and priority, once each, in that order,
   * non-empty and without attributes; null otherwise (the fields above then say all it held). Lets the
   * corrected set write the entry back as read. */
  extra?: string | null;
  /** 1-based ordinal of the entry element in the file (text sitemaps: of the URL line). */
  position: number;
  /** Line of the entry's start tag (text sitemaps: the line of the URL). */
  line: number;
}

export interface SitemapChildEntry {
  type: 'sitemap';
  loc: string;
  lastmodRaw: string | null;
  lastmod: Date | null;
  position: number;
  line: number;
}

export type SitemapEntry = SitemapUrlEntry | SitemapChildEntry;

export interface SitemapWarning {
  code: string;
  message: string;
  line?: number;
  column?: number;
  /** Entry errors (e.g. loc_too_long): how many entries of the file had it. */
  count?: number;
  /** Entry errors: the first few, each with a bounded prefix of the value (never the whole value). */
  examples?: EntryErrorExample[];
}

export interface EntryErrorExample {
  position: number;
  line: number;
  prefix: string;
}

export type SitemapParseErrorCode =
  | 'empty'
  | 'not_a_sitemap'
  | 'too_large'
  | 'gzip_error'
  | 'bad_encoding'
  | 'invalid_utf8'
  | 'xml_doctype'
  | 'xml_malformed'
  | 'xml_too_deep'
  | 'xml_token_too_long';

/** A parse failure whose message is safe to show to a user as is. */
export class SitemapParseError extends Error {
  readonly code: SitemapParseErrorCode;
  readonly line?: number;
  readonly column?: number;

  constructor(code: SitemapParseErrorCode, message: string, position?: { line: number; column?: number }) {
    super(message);
    this.name = 'SitemapParseError';
    this.code = code;
    if (position) {
      this.line = position.line;
      if (position.column !== undefined) this.column = position.column;
    }
  }
}

export interface ParseStats {
  compressedBytes: number;
  uncompressedBytes: number;
  kind: SitemapKind | null;
  gzip: boolean;
  /** The content (after any gunzip) starts with a UTF-8 or UTF-16 byte order mark. */
  bom: boolean;
  entries: number;
  warnings: SitemapWarning[];
  /** An XML sitemap's root start tag without its brackets: the qualified name, then every attribute
   * (namespace declarations included) as read; null until read, and for text files and feeds. */
  rootTag?: string | null;
}
