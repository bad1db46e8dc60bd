// Entry point of sitemap parsing: raw bytes (as fetched or uploaded) in, entries out, streaming.
// Pipeline: decompress (gzip by magic bytes) → decode (BOM / XML declaration / UTF-8) → sniff the
// first significant character → XML reader (saxes) or plain-text reader. Pure: no I/O of its own.

import type { InflateBudget } from '@/lib/inflate/budget';
import { ContentDecoder } from './content-decoder';
import { decompressSource } from './decompress';
import { DEFAULT_MAX_LOC_CHARS, DEFAULT_MAX_XML_DEPTH, type ReaderLimits } from './loc-checks';
import { TextSitemapReader } from './text-reader';
import { type ParseStats, type SitemapEntry, SitemapParseError } from './types';
import { countLineBreaks } from './utils';
import { XmlSitemapReader } from './xml-reader';
import { HTML_MESSAGE, looksLikeHtml } from './xml-root';

export interface ParseOptions {
  /** Default 200 MiB; exceeding it raises SitemapParseError 'too_large'. */
  maxUncompressedBytes?: number;
  /** Longest accepted location (default 2,048); a longer one is refused as that entry's error. */
  maxLocChars?: number;
  /** Deepest XML nesting accepted (default 100); deeper fails the file with 'xml_too_deep'. */
  maxXmlDepth?: number;
  /** Only used to prefix error messages. */
  fileName?: string;
  /** The budget of inflated bytes this file shares with others (an audit's sitemap files): each
   * uncompressed chunk counts into it, and passing it throws its InflateBudgetError. */
  budget?: InflateBudget;
}

export const DEFAULT_MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;
/** sitemaps.org limits per file; files over them are still read in full, with a warning. */
export const PROTOCOL_MAX_ENTRIES = 50_000;
export const PROTOCOL_MAX_BYTES = 52_428_800;

type Reader = XmlSitemapReader | TextSitemapReader;

export function newParseStats(): ParseStats {
  return {
    compressedBytes: 0,
    uncompressedBytes: 0,
    kind: null,
    gzip: false,
    bom: false,
    entries: 0,
    warnings: [],
  };
}

/** Routes decoded text to the right reader once the first non-whitespace character is known. */
class Sniffer {
  reader: Reader | null = null;
  private readonly stats: ParseStats;
  private leadingLineBreaks = 0;
  private leadingEndsWithCr = false;
  private head = '';

  constructor(
    stats: ParseStats,
    private readonly limits: ReaderLimits,
  ) {
    this.stats = stats;
  }

  /** Keeps the first bytes so an undecodable file can still be recognised as an HTML page. */
  keepHead(bytes: Uint8Array): void {
    if (this.head.length < 1024) this.head += Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  }

  /** A legacy-encoded HTML page fails decoding before any reader sees it; say what it really is. */
  isHtmlBeforeAnyText(err: SitemapParseError): boolean {
    return (
      this.reader === null &&
      (err.code === 'invalid_utf8' || err.code === 'bad_encoding') &&
      looksLikeHtml(this.head)
    );
  }

  write(text: string): void {
    if (this.reader) {
      this.reader.write(text);
      return;
    }
    let i = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0xfeff) break;
    }
    // Whitespace before `<?xml` is dropped (saxes rejects a declaration that is not first);
    // the line breaks it held are added back to every reported line number.
    const skipped = text.slice(0, i);
    this.leadingLineBreaks += countLineBreaks(skipped, this.leadingEndsWithCr);
    if (skipped.length > 0) this.leadingEndsWithCr = skipped.charCodeAt(skipped.length - 1) === 0x0d;
    if (i === text.length) return;
    if (text.charCodeAt(i) === 0x3c /* < */) {
      this.reader = new XmlSitemapReader(this.stats, this.leadingLineBreaks, this.limits);
    } else {
      this.stats.kind = 'text';
      this.reader = new TextSitemapReader(
        this.stats.warnings,
        this.leadingLineBreaks + 1,
        this.limits.maxLocChars,
      );
    }
    this.reader.write(text.slice(i));
  }
}

function take(reader: Reader | null, stats: ParseStats): SitemapEntry[] | null {
  if (!reader || reader.batch.length === 0) return null;
  const batch = reader.batch;
  reader.batch = [];
  stats.entries += batch.length;
  return batch;
}

/** Adds the over_protocol_limit warning once, as soon as either limit is passed. */
function checkProtocolLimits(stats: ParseStats): void {
  const tooMany = stats.entries > PROTOCOL_MAX_ENTRIES;
  if (!tooMany && stats.uncompressedBytes <= PROTOCOL_MAX_BYTES) return;
  if (stats.warnings.some((warning) => warning.code === 'over_protocol_limit')) return;
  stats.warnings.push({
    code: 'over_protocol_limit',
    message: `the file has ${tooMany ? 'more than 50,000 URLs' : 'more than 50 MiB of uncompressed data'}, over the sitemap protocol limit; search engines may ignore it (it was read in full)`,
  });
}

/**
 * Streams a sitemap file and yields its entries in arrays (one per input chunk at most), which is
 * far cheaper to consume than one `await` per entry. Entries completed before an error are
 * yielded first, then the SitemapParseError is thrown. `stats` is updated as parsing proceeds.
 */
export async function* parseSitemapBatches(
  source: AsyncIterable<Uint8Array>,
  stats: ParseStats,
  options: ParseOptions = {},
): AsyncGenerator<SitemapEntry[], void, undefined> {
  const maxBytes = options.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES;
  const decoder = new ContentDecoder(stats.warnings, () => {
    stats.bom = true;
  });
  const sniffer = new Sniffer(stats, {
    maxLocChars: options.maxLocChars ?? DEFAULT_MAX_LOC_CHARS,
    maxDepth: options.maxXmlDepth ?? DEFAULT_MAX_XML_DEPTH,
  });
  try {
    for await (const bytes of decompressSource(source, stats, maxBytes)) {
      options.budget?.count(options.fileName ?? 'a sitemap file', bytes.length);
      if (sniffer.reader === null) sniffer.keepHead(bytes);
      sniffer.write(decoder.decode(bytes));
      const batch = take(sniffer.reader, stats);
      checkProtocolLimits(stats);
      if (batch) yield batch;
    }
    sniffer.write(decoder.end());
    const reader = sniffer.reader;
    if (!reader) {
      const afterGunzip = stats.gzip ? ' after decompression' : '';
      const onlySpace = stats.uncompressedBytes > 0 ? ' (only whitespace)' : '';
      throw new SitemapParseError('empty', `the file is empty${afterGunzip}${onlySpace}`);
    }
    reader.close();
    const batch = take(reader, stats);
    checkProtocolLimits(stats);
    if (batch) yield batch;
  } catch (err) {
    const batch = take(sniffer.reader, stats);
    if (batch) yield batch;
    if (!(err instanceof SitemapParseError)) throw err;
    const error = sniffer.isHtmlBeforeAnyText(err)
      ? new SitemapParseError('not_a_sitemap', HTML_MESSAGE)
      : err;
    // A text file without a single URL is not a text sitemap after all.
    if (error.code === 'not_a_sitemap') stats.kind = null;
    if (options.fileName) error.message = `${options.fileName}: ${error.message}`;
    throw error;
  } finally {
    sniffer.reader?.flushWarnings();
  }
}

/** One entry at a time, for callers that prefer it; bulk ingest should use parseSitemapBatches. */
export async function* parseSitemap(
  source: AsyncIterable<Uint8Array>,
  stats: ParseStats,
  options?: ParseOptions,
): AsyncGenerator<SitemapEntry, void, undefined> {
  for await (const batch of parseSitemapBatches(source, stats, options)) {
    for (const entry of batch) yield entry;
  }
}
