// Streams Screaming Frog and other CSV/TSV crawl exports through csv-parse, one record at a time:
// optional one-cell banner row before the header, rows with the wrong field count rejected, exact lines.
import { Parser } from 'csv-parse';
import type { RowCollector } from './collector';
import { type ColumnMap, type ColumnPlan, planColumns } from './columns';
import { LongLineGuard, MAX_CSV_LINE_BYTES } from './long-lines';
import { type CrawlField, CrawlImportError, type CrawlReport, type CrawlRow } from './types';
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
} from './values';

/** A record this big means an unbalanced quote swallowing the file; stop before it eats the memory. */
const MAX_RECORD_BYTES = 8 * 1024 * 1024;
const DELIMITERS = [',', '\t', ';'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export interface CsvOptions {
  isScreamingFrog: boolean;
  delimiter: Delimiter;
  columnMap?: ColumnMap;
  /** Longest URL, canonical or redirect target accepted (default 2,048). */
  maxUrlChars?: number;
}

export async function* readCsvBatches(
  chunks: AsyncIterable<Buffer>,
  options: CsvOptions,
  collector: RowCollector,
  report: CrawlReport,
): AsyncGenerator<CrawlRow[]> {
  const rows = new CsvRows(options, collector, report);
  const lines = new LineCounter();
  const guard = new LongLineGuard();
  let recordStart = 0;
  let failure: unknown = null;
  // Dropped long lines are rejected in line order, before the record that follows them.
  const rejectCutsBefore = (offset: number) => {
    while (guard.cuts.length > 0 && (guard.cuts[0] as number) < offset) {
      const line = lines.lineAt(guard.cuts.shift() as number);
      collector.reject(
        line,
        `the line is longer than ${MAX_CSV_LINE_BYTES / 1024 / 1024} MiB (no crawl value is that long); skipped unread`,
      );
    }
  };
  const parser = new Parser({
    delimiter: options.delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_records_with_error: true,
    max_record_size: MAX_RECORD_BYTES,
    // Records are handled here, synchronously inside write(), so nothing is buffered in the stream.
    on_record: (record: string[], context) => {
      if (failure !== null) return null;
      if (guard.cuts.length > 0) rejectCutsBefore(recordStart + 1);
      const line = lines.lineAt(recordStart);
      recordStart = context.bytes;
      try {
        rows.read(record, line);
      } catch (error) {
        failure ??= error;
      }
      return null;
    },
    on_skip: (error) => {
      if (guard.cuts.length > 0) rejectCutsBefore(recordStart + 1);
      const line = lines.lineAt(recordStart);
      if (error?.code === 'CSV_MAX_RECORD_SIZE') {
        failure ??= new CrawlImportError(
          'malformed_csv',
          `The record starting at line ${line} is larger than 8 MiB; the file probably has an unbalanced quote.`,
        );
      } else {
        collector.reject(line, `malformed CSV: ${error?.message ?? 'unreadable record'}`);
      }
    },
  });
  parser.on('error', (error) => {
    failure ??= new CrawlImportError('malformed_csv', `The CSV file could not be read: ${error.message}`);
  });
  try {
    for await (const chunk of chunks) {
      const passed = guard.pass(chunk);
      if (passed.length === 0) continue;
      lines.push(passed);
      parser.write(passed);
      if (failure !== null) throw failure;
      const batch = collector.take();
      if (batch !== null) yield batch;
    }
    const rest = guard.end();
    if (rest.length > 0 && failure === null) {
      lines.push(rest);
      parser.write(rest);
    }
    if (failure === null && !parser.destroyed) {
      await new Promise<void>((resolve) => {
        parser.once('finish', resolve);
        // An errored parser never finishes; it closes.
        parser.once('close', resolve);
        parser.end();
      });
    }
    if (failure !== null) throw failure;
    rejectCutsBefore(Number.POSITIVE_INFINITY);
    rows.finish();
  } finally {
    parser.destroy();
  }
  const last = collector.take(true);
  if (last !== null) yield last;
}

class CsvRows {
  private plan: ColumnPlan | null = null;
  private maybeBanner: string[] | null = null;

  constructor(
    private readonly options: CsvOptions,
    private readonly collector: RowCollector,
    private readonly report: CrawlReport,
  ) {}

  read(record: string[], line: number): void {
    if (record.length === 1 && (record[0] ?? '').trim() === '') return;
    if (this.plan === null) {
      if (this.maybeBanner === null && record.length === 1) {
        this.maybeBanner = record;
        return;
      }
      if (this.maybeBanner === null || record.length > 1) {
        if (this.maybeBanner !== null) this.noteBanner(this.maybeBanner[0] ?? '');
        this.maybeBanner = null;
        this.readHeader(record);
        return;
      }
      // Two one-cell records in a row: a single-column file whose first record was its header.
      this.readHeader(this.maybeBanner);
      this.maybeBanner = null;
    }
    this.readData(record, line, this.plan as ColumnPlan);
  }

  /** A one-cell file (header only) never met a second record. */
  finish(): void {
    if (this.plan === null && this.maybeBanner !== null) this.readHeader(this.maybeBanner);
  }

  private noteBanner(text: string): void {
    this.collector.warn(
      'banner_row_skipped',
      `Skipped the title row "${text.slice(0, 80)}" above the header.`,
    );
  }

  private readHeader(headers: string[]): void {
    this.plan = planColumns(headers, this.options.isScreamingFrog, this.options.columnMap);
    Object.assign(this.report.mappedColumns, this.plan.mapped);
    this.report.unmappedColumns.push(...this.plan.unmapped);
  }

  private readData(record: string[], line: number, plan: ColumnPlan): void {
    const row = this.toRow(record, line, plan);
    if (row instanceof Invalid) this.collector.reject(line, row.reason);
    else this.collector.accept(row);
  }

  private toRow(record: string[], line: number, plan: ColumnPlan): CrawlRow | Invalid {
    if (record.length !== plan.headerLength) {
      return new Invalid(`expected ${plan.headerLength} fields, found ${record.length}`);
    }
    const { single, multi } = plan;
    const maxUrl = this.options.maxUrlChars;
    const url = readPageUrl(record[single.url], maxUrl);
    if (url instanceof Invalid) return url;
    const status = readStatus(record[single.status]);
    if (status instanceof Invalid) return status;
    const indexable = readBoolean(record[single.indexable], 'indexable');
    if (indexable instanceof Invalid) return indexable;
    const redirectUrl = readLinkedUrl(record[single.redirectUrl], url, 'redirect', maxUrl);
    return {
      line,
      url,
      status,
      canonical: this.optional(
        'canonical',
        line,
        readLinkedUrl(record[single.canonical], url, 'canonical', maxUrl),
      ),
      indexable,
      noindex: multi.noindex.some((index) => hasNoindex(record[index])),
      blockedByRobots: multi.blockedByRobots.some((index) => isBlockedByRobots(record[index])),
      canonicalised: multi.canonicalised.some((index) => isCanonicalised(record[index])),
      crawledAt: this.optional('crawledAt', line, readTimestamp(record[single.crawledAt])),
      depth: this.optional('depth', line, readDepth(record[single.depth])),
      redirectUrl: this.optional('redirectUrl', line, redirectUrl),
      contentType: readText(record[single.contentType]),
      inlinks: this.optional('inlinks', line, readWholeNumber(record[single.inlinks], 'inlinks')),
    };
  }

  private optional<T>(field: CrawlField, line: number, value: T | Invalid): T | null {
    if (!(value instanceof Invalid)) return value;
    this.collector.dropValue(field, line, value.reason);
    return null;
  }
}

/** Maps csv-parse's byte offsets to 1-based line numbers. csv-parse's own `lines` counts a CRLF inside a
 * quoted cell twice, so lines are counted here from the `\n` bytes before each record's first byte. */
class LineCounter {
  private readonly chunks: Buffer[] = [];
  private base = 0;
  private counted = 0;
  private line = 1;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  lineAt(offset: number): number {
    while (this.counted < offset) {
      const chunk = this.chunks[0];
      if (chunk === undefined) break;
      const chunkEnd = this.base + chunk.length;
      const stop = Math.min(offset, chunkEnd);
      let at = chunk.indexOf(10, this.counted - this.base);
      while (at !== -1 && this.base + at < stop) {
        this.line++;
        at = chunk.indexOf(10, at + 1);
      }
      this.counted = stop;
      if (stop < chunkEnd) break;
      this.chunks.shift();
      this.base = chunkEnd;
    }
    return this.line;
  }
}

/** Header cells and delimiter from the first lines of the file, skipping a one-cell banner row. */
export function sniffCsvHead(head: string): { delimiter: Delimiter; headers: string[] } {
  const lines = head.split('\n', 3).map((line) => line.replace(/\r$/, ''));
  const first = lines[0] ?? '';
  const second = lines[1];
  const delimiter = sniffDelimiter(first);
  if (countOutsideQuotes(first, delimiter) === 0 && second !== undefined && second.trim() !== '') {
    const secondDelimiter = sniffDelimiter(second);
    if (countOutsideQuotes(second, secondDelimiter) > 0) {
      return { delimiter: secondDelimiter, headers: splitLine(second, secondDelimiter) };
    }
  }
  return { delimiter, headers: splitLine(first, delimiter) };
}

function sniffDelimiter(line: string): Delimiter {
  let best: Delimiter = ',';
  let bestCount = 0;
  for (const delimiter of DELIMITERS) {
    const count = countOutsideQuotes(line, delimiter);
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  return splitLine(line, delimiter).length - 1;
}

/** Good enough for a header line (detection only; data goes through csv-parse). */
function splitLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let isQuoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === '"') {
      if (isQuoted && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else {
        isQuoted = !isQuoted;
      }
    } else if (char === delimiter && !isQuoted) {
      cells.push(cell);
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell);
  return cells;
}
