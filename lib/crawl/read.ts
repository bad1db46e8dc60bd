// Entry point for crawl-export imports: opens the bytes (gzip, encodings), detects the format and streams
// valid rows in batches while the report records what was mapped, skipped and why.
import { InflateBudget } from '@/lib/inflate/budget';
import { RowCollector } from './collector';
import type { ColumnMap } from './columns';
import { looksLikeScreamingFrog } from './columns';
import { readCsvBatches, sniffCsvHead } from './csv';
import { readJsonlBatches } from './jsonl';
import { openCrawlSource, peek } from './source';
import { type CrawlFormat, CrawlImportError, type CrawlReport, type CrawlRow } from './types';

export interface ReadCrawlOptions {
  /** Detected when absent. */
  format?: CrawlFormat;
  /** field → header name; needed for 'csv' unless the headers are obvious (url/address/status...). */
  columnMap?: ColumnMap;
  fileName?: string;
  /** Uncompressed cap in bytes (default 2 GiB, CRAWL_MAX_INFLATED_BYTES) → CrawlImportError 'too_large'. */
  maxBytes?: number;
  /** Longest URL, canonical or redirect target (default 2,048, SITEMAP_MAX_LOC_CHARS): longer is that row's error. */
  maxUrlChars?: number;
}

export const DEFAULT_CRAWL_MAX_BYTES = 2 * 1024 * 1024 * 1024;
/** Enough text to see a banner row and the header of a wide Screaming Frog export. */
const MAX_HEAD_BYTES = 1024 * 1024;
const JSONL_NAME = /\.(jsonl|jl|ndjson)(\.gz)?$/i;

export function newCrawlReport(): CrawlReport {
  return {
    format: 'csv',
    rows: 0,
    rejected: 0,
    rejections: [],
    mappedColumns: {},
    unmappedColumns: [],
    warnings: [],
  };
}

/** Streams a crawl export (raw bytes; gzip detected by magic bytes 1f 8b) and yields valid rows in batches
 * (arrays, for bulk COPY speed). `report` is filled as it goes. Throws CrawlImportError at the end if no
 * row was valid. */
export async function* readCrawlBatches(
  source: AsyncIterable<Uint8Array>,
  report: CrawlReport,
  options: ReadCrawlOptions = {},
): AsyncGenerator<CrawlRow[]> {
  // One iterator for the whole read, so every exit path can release the caller's stream.
  const iterator = source[Symbol.asyncIterator]();
  const budget = new InflateBudget({
    limit: options.maxBytes ?? DEFAULT_CRAWL_MAX_BYTES,
    setting: 'CRAWL_MAX_INFLATED_BYTES',
    scope: 'a crawl export',
  });
  const decoded = openCrawlSource({ [Symbol.asyncIterator]: () => iterator }, budget, options.fileName);
  try {
    const { head, stream } = await peek(decoded, hasHeaderLines);
    const headText = head.toString('utf8');
    if (headText.trim() === '') throw new CrawlImportError('empty_file', 'The crawl export is empty.');
    rejectUnsupported(headText);
    const format = options.format ?? detectCrawlFormat(headText, options.fileName);
    report.format = format;
    const collector = new RowCollector(report);
    if (format === 'jsonl') {
      yield* readJsonlBatches(stream, collector, report, options.maxUrlChars);
    } else {
      const csvOptions = {
        isScreamingFrog: format === 'screaming-frog',
        delimiter: sniffCsvHead(headText).delimiter,
        columnMap: options.columnMap,
        maxUrlChars: options.maxUrlChars,
      };
      yield* readCsvBatches(stream, csvOptions, collector, report);
    }
    collector.syncWarnings();
    if (report.rows === 0) throw noValidRows(report);
  } finally {
    await decoded.return(undefined);
    await iterator.return?.();
  }
}

export function detectCrawlFormat(head: string, fileName?: string): CrawlFormat {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{')) return 'jsonl';
  const { headers } = sniffCsvHead(text);
  if (looksLikeScreamingFrog(headers)) return 'screaming-frog';
  // A .jsonl name only decides when the first line is not a delimited header either.
  if (headers.length <= 1 && fileName !== undefined && JSONL_NAME.test(fileName)) return 'jsonl';
  return 'csv';
}

/** Stops reading once two lines past any leading blank space are in, or at 1 MiB. */
function hasHeaderLines(head: Buffer): boolean {
  if (head.length >= MAX_HEAD_BYTES) return true;
  let at = 0;
  while (at < head.length && (head[at] as number) <= 0x20) at++;
  if (at === head.length) return false;
  const firstNewline = head.indexOf(10, at);
  return firstNewline !== -1 && head.indexOf(10, firstNewline + 1) !== -1;
}

function rejectUnsupported(head: string): void {
  const text = head.trimStart();
  if (/^<[?!a-z]/i.test(text)) {
    throw new CrawlImportError(
      'unsupported_format',
      'This file looks like XML or HTML, not a crawl export. Upload a JSON Lines or CSV crawl export.',
    );
  }
  if (/^\[\s*[{\]]/.test(text)) {
    throw new CrawlImportError(
      'unsupported_format',
      'This file is a JSON array. Export the crawl as JSON Lines (one JSON object per line) instead.',
    );
  }
}

function noValidRows(report: CrawlReport): CrawlImportError {
  if (report.rejected === 0) {
    return new CrawlImportError('no_valid_rows', 'The crawl export has no rows below its header.');
  }
  const examples = report.rejections
    .slice(0, 3)
    .map((rejection) => `line ${rejection.line}: ${rejection.reason}`)
    .join('; ');
  const rows = report.rejected === 1 ? 'the only row' : `all ${report.rejected} rows`;
  return new CrawlImportError('no_valid_rows', `No usable rows: ${rows} had problems (${examples}).`);
}
