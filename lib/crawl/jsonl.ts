// Reads JSON Lines crawl graphs: the playbook's shape (url, status, canonical_url, indexable, crawled_at,
// depth, redirect_url, blocked_by_robots) and advertools' crawl output (canonical, crawl_time, and
// `redirect_urls` chains joined with `@@`). One row per line: a row's line is its identity downstream.
import type { RowCollector } from './collector';
import type { CrawlField, CrawlReport, CrawlRow } from './types';
import {
  hasNoindex,
  Invalid,
  isBlockedByRobots,
  isCanonicalised,
  readBoolean,
  readDepth,
  readLinkedUrl,
  readPageUrl,
  readStatus,
  readText,
  readTimestamp,
  readWholeNumber,
  show,
} from './values';

/** A line this long is not a crawl row: it is skipped as that row's error without being buffered whole,
 * so a 60 MB cell (or a file without newlines) costs at most this much memory. */
const MAX_LINE_CHARS = 32 * 1024 * 1024;

/** JSON keys read for each field, in order of preference (noindex reads all of its keys). */
const KEYS: Record<CrawlField, string[]> = {
  url: ['url'],
  status: ['status', 'status_code'],
  canonical: ['canonical_url', 'canonical'],
  indexable: ['indexable'],
  noindex: ['noindex', 'meta_robots', 'x_robots_tag', 'resp_headers_X-Robots-Tag'],
  blockedByRobots: ['blocked_by_robots'],
  canonicalised: ['canonicalised'],
  crawledAt: ['crawled_at', 'crawl_time'],
  depth: ['depth'],
  redirectUrl: ['redirect_url'],
  contentType: ['content_type', 'resp_headers_Content-Type'],
  inlinks: ['inlinks'],
};
/** Keys are only listed for the report; a file with ever-new keys must not grow this without bound. */
const MAX_KEYS_LISTED = 1000;

type Json = Record<string, unknown>;

export async function* readJsonlBatches(
  chunks: AsyncIterable<Buffer>,
  collector: RowCollector,
  report: CrawlReport,
  maxUrlChars?: number,
): AsyncGenerator<CrawlRow[]> {
  const reader = new JsonlRows(collector, maxUrlChars);
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  // Inside a line over MAX_LINE_CHARS: its text is dropped until the next newline.
  let skipping = false;
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = text.indexOf('\n');
    if (skipping) {
      if (newline === -1) continue;
      skipping = false;
      reader.skipLongLine();
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    while (newline !== -1) {
      const lineText =
        start === 0 && pending !== '' ? pending + text.slice(0, newline) : text.slice(start, newline);
      pending = '';
      reader.readLine(lineText);
      start = newline + 1;
      newline = text.indexOf('\n', start);
      const batch = collector.take();
      if (batch !== null) {
        reader.describeKeys(report);
        yield batch;
      }
    }
    pending = start === 0 ? pending + text : text.slice(start);
    if (pending.length > MAX_LINE_CHARS) {
      pending = '';
      skipping = true;
    }
  }
  const tail = pending + decoder.decode();
  if (skipping) reader.skipLongLine();
  else if (tail !== '') reader.readLine(tail);
  reader.describeKeys(report);
  if (reader.chains > 0) {
    collector.warn(
      'redirect_chains_not_imported',
      `${reader.chains} rows were reached through redirects (${reader.hops} redirecting URLs in advertools' ` +
        'redirect_urls). Each row is imported as its final URL; the redirecting URLs are not imported.',
    );
  }
  const last = collector.take(true);
  if (last !== null) yield last;
}

class JsonlRows {
  line = 0;
  hops = 0;
  chains = 0;
  private readonly seenKeys = new Set<string>();

  constructor(
    private readonly collector: RowCollector,
    private readonly maxUrlChars?: number,
  ) {}

  skipLongLine(): void {
    const line = ++this.line;
    this.collector.reject(
      line,
      'the line is longer than 32 MiB (no crawl value is that long); skipped unread',
    );
  }

  readLine(raw: string): void {
    const line = ++this.line;
    const text = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
    // Anything but an object is refused before JSON.parse: its exceptions cost ~10 µs each on junk files.
    if (text.charCodeAt(0) !== 123 && !text.trimStart().startsWith('{')) {
      this.collector.reject(line, `expected a JSON object, found ${show(text)}`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.collector.reject(
        line,
        `invalid JSON: ${message.length > 160 ? `${message.slice(0, 157)}...` : message}`,
      );
      return;
    }
    const json = value as Json;
    if (this.seenKeys.size < MAX_KEYS_LISTED) for (const key in json) this.seenKeys.add(key);
    const row = this.toRow(json, line);
    if (row instanceof Invalid) this.collector.reject(line, row.reason);
    else this.collector.accept(row);
  }

  private toRow(row: Json, line: number): CrawlRow | Invalid {
    const url = readPageUrl(row.url, this.maxUrlChars);
    if (url instanceof Invalid) return url;
    const status = readStatus(first(row.status, row.status_code));
    if (status instanceof Invalid) return status;
    const indexable = readBoolean(row.indexable, 'indexable');
    if (indexable instanceof Invalid) return indexable;
    // advertools puts the final URL in `url` and the URLs that redirected to it in `redirect_urls`.
    if (typeof row.redirect_urls === 'string' && row.redirect_urls !== '') {
      this.chains++;
      this.hops += row.redirect_urls.split('@@').length;
    }
    const canonical = readLinkedUrl(
      first(row.canonical_url, row.canonical),
      url,
      'canonical',
      this.maxUrlChars,
    );
    const redirectUrl = readLinkedUrl(row.redirect_url, url, 'redirect_url', this.maxUrlChars);
    const crawledAt = readTimestamp(first(row.crawled_at, row.crawl_time));
    return {
      line,
      url,
      status,
      canonical: this.optional('canonical', line, canonical),
      indexable,
      noindex:
        hasNoindex(row.noindex) ||
        hasNoindex(row.meta_robots) ||
        hasNoindex(row.x_robots_tag) ||
        hasNoindex(row['resp_headers_X-Robots-Tag']),
      blockedByRobots: isBlockedByRobots(row.blocked_by_robots),
      canonicalised: isCanonicalised(row.canonicalised),
      crawledAt: this.optional('crawledAt', line, crawledAt),
      depth: this.optional('depth', line, readDepth(row.depth)),
      redirectUrl: this.optional('redirectUrl', line, redirectUrl),
      contentType: readText(first(row.content_type, row['resp_headers_Content-Type'])),
      inlinks: this.optional('inlinks', line, readWholeNumber(row.inlinks, 'inlinks')),
    };
  }

  private optional<T>(field: CrawlField, line: number, value: T | Invalid): T | null {
    if (!(value instanceof Invalid)) return value;
    this.collector.dropValue(field, line, value.reason);
    return null;
  }

  /** mappedColumns: each field → the keys it was read from; unmappedColumns: every other key seen. */
  describeKeys(report: CrawlReport): void {
    const { mappedColumns, unmappedColumns } = report;
    const used = new Set<string>();
    for (const [field, keys] of Object.entries(KEYS)) {
      const present = keys.filter((key) => this.seenKeys.has(key));
      for (const key of keys) used.add(key);
      if (present.length === 0) continue;
      mappedColumns[field] = field === 'noindex' ? present.join(' + ') : (present[0] as string);
    }
    unmappedColumns.length = 0;
    for (const key of this.seenKeys) if (!used.has(key)) unmappedColumns.push(key);
  }
}

function first(preferred: unknown, fallback: unknown): unknown {
  return preferred !== undefined && preferred !== null ? preferred : fallback;
}
