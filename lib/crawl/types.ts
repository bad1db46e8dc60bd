// Shapes shared by the crawl-export readers (JSONL, Screaming Frog CSV, mapped generic CSV).

export type CrawlFormat = 'jsonl' | 'screaming-frog' | 'csv';

export interface CrawlRow {
  /** 1-based physical line (CSV: the record's first line) in the decompressed file. */
  line: number;
  url: string;
  /** null when missing; 0 means "no response" (Screaming Frog uses 0 for blocked/no response). */
  status: number | null;
  canonical: string | null;
  /** null when the export does not say. */
  indexable: boolean | null;
  /** A noindex directive was seen. JSONL `indexable: false` alone does NOT imply it. */
  noindex: boolean;
  blockedByRobots: boolean;
  /** The export says the page is canonicalised to another URL (Screaming Frog "Canonicalised"), even
   * when it does not name that URL. */
  canonicalised: boolean;
  crawledAt: Date | null;
  depth: number | null;
  redirectUrl: string | null;
  contentType: string | null;
  /** Pages linking to it, where the export says (Screaming Frog Unique Inlinks, JSONL inlinks). */
  inlinks: number | null;
}

/** Row fields a column (or JSON key) can feed; `line` comes from the reader itself. */
export type CrawlField = Exclude<keyof CrawlRow, 'line'>;

export interface CrawlRejection {
  line: number;
  reason: string;
}

export interface CrawlWarning {
  code: string;
  message: string;
}

export interface CrawlReport {
  format: CrawlFormat;
  /** Valid rows yielded. */
  rows: number;
  /** Bad rows skipped. */
  rejected: number;
  /** The first 100 rejections only. */
  rejections: CrawlRejection[];
  /** field → source column name (CSV formats); for JSONL the keys seen. */
  mappedColumns: Record<string, string>;
  /** Source columns (or JSON keys) not used. */
  unmappedColumns: string[];
  warnings: CrawlWarning[];
  /** sha256 (hex) of the export's bytes as read, set once the whole export was read: what tells two
   * crawls apart (a repeated upload has the same). */
  sha256?: string;
}

export type CrawlImportErrorCode =
  | 'empty_file'
  | 'too_large'
  | 'corrupt_gzip'
  | 'unsupported_format'
  | 'unmapped_url'
  | 'edge_list'
  | 'missing_status'
  | 'unknown_column'
  | 'malformed_csv'
  | 'line_too_long'
  | 'no_valid_rows';

/** The file cannot be imported at all. The message is safe to show to the user. */
export class CrawlImportError extends Error {
  readonly code: CrawlImportErrorCode;

  constructor(code: CrawlImportErrorCode, message: string) {
    super(message);
    this.name = 'CrawlImportError';
    this.code = code;
  }
}
