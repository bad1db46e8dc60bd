// One Search Console CSV export → typed records. The header says what the file is (the name is only a
// hint, users rename files); every bad cell is reported with its line and what was expected, and the
// file is refused as a whole, so a half-read export never reaches the join.
import { parse as parseSync } from 'csv-parse/sync';
import {
  COLUMN_ALIASES,
  type ColumnKey,
  EXPECTED_HEADERS,
  type HeaderPlan,
  normaliseName,
  planHeader,
} from './columns';
import { decodeExport } from './decode';
import { type GscFile, GscFileError, type GscProblem } from './types';
import {
  dateOrderOf,
  Invalid,
  readCount,
  readDate,
  readDecimal,
  readPercent,
  readText,
  type SlashOrder,
} from './values';

export interface ParseLimits {
  /** Largest file read (default 10 MiB; the biggest real export, a 1,000-row table, is ~80 KB). */
  maxBytes: number;
  /** Most records read (default 100,000; a Sitemaps report has a few thousand). */
  maxRows: number;
}

// Reading costs about 10 µs a row here (csv-parse is 60% of it): 1,000,000 rows (33 MiB) took 10 s,
// 100,000 rows 1.2 s. The caps are ten times the largest real export and keep a hostile file to seconds.
export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxBytes: 10 * 1024 * 1024, maxRows: 100_000 };

/** The longest header has 7 short columns; no real header comes near this. */
const MAX_HEADER_CHARS = 4096;
/** A Search Console record is a URL and a few short cells; a longer one is an unbalanced quote. */
const MAX_RECORD_CHARS = 256 * 1024;

/** Problems listed per refused file; the rest are counted. */
const MAX_PROBLEMS = 10;

interface RawRecord {
  line: number;
  cells: string[];
}

export function parseGscFile(name: string, bytes: Uint8Array, limits: Partial<ParseLimits> = {}): GscFile {
  const { maxBytes, maxRows } = { ...DEFAULT_PARSE_LIMITS, ...limits };
  let text: string;
  try {
    text = decodeExport(bytes, maxBytes);
  } catch (error) {
    throw error instanceof Invalid ? new GscFileError(name, [{ line: null, message: error.message }]) : error;
  }
  const { plan, delimiter, headerLine } = readHeader(name, text);
  const problems: GscProblem[] = [];
  let problemCount = 0;
  const report = (line: number | null, message: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push({ line, message });
  };
  const records = readRecords(name, text, delimiter, maxRows, report);
  const header = records.shift();
  const width = header?.cells.length ?? 0;
  const body = records.filter((record) => {
    if (record.line <= headerLine) return false;
    if (record.cells.length === width) return true;
    report(record.line, `has ${record.cells.length} fields where the header has ${width}`);
    return false;
  });
  const file = toFile(name, plan, body, report);
  if (problemCount > 0) {
    // Field counts are checked before cells: put the problems back in file order.
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    if (problemCount > problems.length) {
      problems.push({ line: null, message: `and ${problemCount - problems.length} more problems` });
    }
    throw new GscFileError(name, problems);
  }
  return file;
}

function readHeader(name: string, text: string): { plan: HeaderPlan; delimiter: string; headerLine: number } {
  const start = text.search(/\S/);
  if (start < 0) throw new GscFileError(name, [{ line: null, message: 'the file is empty' }], true);
  const lineStart = Math.max(text.lastIndexOf('\n', start), text.lastIndexOf('\r', start)) + 1;
  const index = text.slice(0, lineStart).split(/\r\n|\n|\r/).length - 1;
  const newline = /\r\n|\n|\r/g;
  newline.lastIndex = lineStart;
  const lineEnd = newline.exec(text)?.index ?? text.length;
  if (lineEnd - lineStart > MAX_HEADER_CHARS) {
    // Parsing a megabyte-long "header" costs seconds and cannot be one of ours.
    const message = `expected a Search Console export; the first line is ${(lineEnd - lineStart).toLocaleString('en')} characters long`;
    throw new GscFileError(name, [{ line: index + 1, message }], true);
  }
  const first = text.slice(lineStart, lineEnd);
  // Search Console writes commas; a spreadsheet saved in a German or French locale writes semicolons.
  for (const delimiter of [',', ';', '\t']) {
    let cells: string[];
    try {
      cells = (parseSync(first, { delimiter, relax_quotes: true }) as string[][])[0] ?? [];
    } catch {
      continue;
    }
    const plan = planHeader(cells);
    if (plan) return { plan, delimiter, headerLine: index + 1 };
  }
  const found = first.length > 120 ? `${first.slice(0, 120)}…` : first;
  const other = otherReportOf(first);
  if (other) throw new GscFileError(name, [{ line: index + 1, message: other }], true);
  throw new GscFileError(
    name,
    [
      {
        line: index + 1,
        message: `expected a Search Console export (a header like ${EXPECTED_HEADERS}); found '${found}'`,
      },
    ],
    true,
  );
}

function readRecords(
  name: string,
  text: string,
  delimiter: string,
  maxRows: number,
  report: (line: number | null, message: string) => void,
): RawRecord[] {
  const records: RawRecord[] = [];
  try {
    // The sync parser with on_record keeps nothing itself: only the records kept here use memory.
    parseSync(text, {
      delimiter,
      // Explicit: csv-parse otherwise takes the first line's ending as the only one.
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      max_record_size: MAX_RECORD_CHARS,
      on_record: (cells: string[], context) => {
        if (records.length > maxRows) {
          throw new GscFileError(name, [
            {
              line: context.lines,
              message: `more than ${maxRows.toLocaleString('en')} rows; the file is refused`,
            },
          ]);
        }
        // context.lines is the record's last line; a quoted newline moves its first line up.
        const inner = cells.reduce((n, cell) => n + (cell.match(/\r\n|\n|\r/g)?.length ?? 0), 0);
        records.push({ line: context.lines - inner, cells });
        return null;
      },
    });
  } catch (error) {
    if (error instanceof GscFileError) throw error;
    const failure = error as { code?: string; lines?: number; message?: string };
    const reason =
      failure.code === 'CSV_MAX_RECORD_SIZE'
        ? `a record longer than ${MAX_RECORD_CHARS / 1024} KiB (an unbalanced quote?)`
        : (failure.message ?? String(error)).replace(/ at line \d+.*$/s, '');
    report(failure.lines ?? null, `not valid CSV (${reason})`);
  }
  return records;
}

type Report = (line: number | null, message: string) => void;

function toFile(name: string, plan: HeaderPlan, records: RawRecord[], report: Report): GscFile {
  const col = (record: RawRecord, key: ColumnKey): string => {
    const i = plan.index[key];
    return i === undefined ? '' : (record.cells[i] ?? '');
  };
  const notes: string[] = [];
  let slashOrder: SlashOrder = 'day-first';
  const dateKeys = (['lastCrawled', 'date', 'submitted', 'lastRead'] as const).filter(
    (key) => plan.index[key] !== undefined,
  );
  try {
    const order = dateOrderOf(records.flatMap((record) => dateKeys.map((key) => col(record, key))));
    slashOrder = order.order;
    if (order.note) notes.push(order.note);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    report(null, error.message);
  }
  // English names in messages (the first alias of each column).
  const header = (key: ColumnKey) => `'${COLUMN_ALIASES[key][0]}'`;
  /** Reads one cell; a bad value is reported on its line and the record is dropped. */
  const cell = <T>(record: RawRecord, key: ColumnKey, read: (raw: string) => T): T => {
    try {
      return read(col(record, key));
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      throw new Invalid(`${header(key)}: ${error.message}`);
    }
  };
  const required = <T>(value: T | null, key: ColumnKey): T => {
    if (value === null) throw new Invalid(`${header(key)} is empty`);
    return value;
  };
  const date = (raw: string) => readDate(raw, slashOrder);
  const rows = <T>(read: (record: RawRecord) => T): T[] => {
    const out: T[] = [];
    for (const record of records) {
      try {
        out.push(read(record));
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        report(record.line, error.message);
      }
    }
    return out;
  };
  const base = { name, ignoredColumns: plan.ignoredColumns, notes };
  switch (plan.kind) {
    case 'drilldown-table':
      return {
        ...base,
        kind: plan.kind,
        rows: rows((r) => ({
          line: r.line,
          url: required(cell(r, 'url', readUrl), 'url'),
          lastCrawled: cell(r, 'lastCrawled', date),
          status: cell(r, 'status', readText),
        })),
      };
    case 'drilldown-chart':
      return {
        ...base,
        kind: plan.kind,
        rows: rows((r) => ({
          line: r.line,
          date: required(cell(r, 'date', date), 'date'),
          affectedPages: cell(r, 'affectedPages', readCount),
        })),
      };
    case 'overview-chart':
      return {
        ...base,
        kind: plan.kind,
        rows: rows((r) => ({
          line: r.line,
          date: required(cell(r, 'date', date), 'date'),
          notIndexed: cell(r, 'notIndexed', readCount),
          indexed: cell(r, 'indexed', readCount),
          impressions: cell(r, 'impressions', readCount),
        })),
      };
    case 'metadata':
      return {
        ...base,
        kind: plan.kind,
        rows: rows((r) => ({
          line: r.line,
          property: required(cell(r, 'property', readText), 'property'),
          value: cell(r, 'value', (raw) => raw.trim()),
        })),
      };
    case 'issues':
      return {
        ...base,
        kind: plan.kind,
        severity: /non[\s_-]*critical|nicht kritisch|non critique|no cr[ií]tic/i.test(name)
          ? 'non-critical'
          : 'critical',
        rows: rows((r) => ({
          line: r.line,
          reason: required(cell(r, 'reason', readText), 'reason'),
          source: cell(r, 'source', readText),
          validation: cell(r, 'validation', readText),
          trend: cell(r, 'trend', readText),
          pages: cell(r, 'pages', readCount),
        })),
      };
    case 'sitemaps':
      return {
        ...base,
        kind: plan.kind,
        rows: rows((r) => ({
          line: r.line,
          sitemap: required(cell(r, 'sitemap', readText), 'sitemap'),
          type: cell(r, 'type', readText),
          submitted: cell(r, 'submitted', date),
          lastRead: cell(r, 'lastRead', date),
          status: cell(r, 'status', readText),
          discoveredPages: cell(r, 'discoveredPages', readCount),
          discoveredVideos: cell(r, 'discoveredVideos', readCount),
        })),
      };
    case 'performance-pages':
      return {
        ...base,
        kind: plan.kind,
        rows: rows((r) => ({
          line: r.line,
          url: required(cell(r, 'topPages', readUrl), 'topPages'),
          clicks: cell(r, 'clicks', readCount),
          impressions: cell(r, 'impressions', readCount),
          ctr: cell(r, 'ctr', readPercent),
          position: cell(r, 'position', readDecimal),
        })),
      };
  }
}

/** An absolute http(s) URL, kept as written: the join decides how to normalise it. */
function readUrl(raw: string): string | null {
  const text = readText(raw);
  if (text === null) return null;
  if (/^https?:\/\//i.test(text) && URL.canParse(text)) return text;
  throw new Invalid(
    `expected an absolute http(s) URL; found '${text.length > 80 ? `${text.slice(0, 80)}…` : text}'`,
  );
}

/**
 * The Performance export's other tables and the Filters file come in the same zip as Pages.csv; they
 * are named, so that a user sees why they were left out rather than an "unknown file".
 */
function otherReportOf(header: string): string | null {
  const names = header.split(/[,;\t]/).map(normaliseName);
  if (names.includes('clicks') && names.includes('impressions')) {
    return `a Performance report table ('${header.split(/[,;\t]/)[0]}'); only its Pages table ('Top pages,Clicks,…') is read`;
  }
  if (names.length === 2 && names[0] === 'filter' && names[1] === 'value') {
    return "the Performance report's filters ('Filter,Value'); not used";
  }
  return null;
}
