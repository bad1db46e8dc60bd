// Shapes of Google Search Console CSV exports once read: one record type per file kind, the export
// groups they form, and the one error type that names the file, the line and what was expected.

/** What a file is, told from its header (the file name is only a hint). */
export type GscFileKind =
  | 'drilldown-table'
  | 'drilldown-chart'
  | 'overview-chart'
  | 'metadata'
  | 'issues'
  | 'sitemaps'
  | 'performance-pages';

/** Dates are calendar days, written `YYYY-MM-DD` whatever the export wrote. */
export type IsoDate = string;

export interface TableRow {
  /** 1-based line of the record in the file (the header is line 1). */
  line: number;
  url: string;
  lastCrawled: IsoDate | null;
  /** Only some drilldowns have a Status column. */
  status: string | null;
}

export interface DrilldownChartRow {
  line: number;
  date: IsoDate;
  affectedPages: number | null;
}

export interface OverviewChartRow {
  line: number;
  date: IsoDate;
  /** Empty on the first days Search Console knows a property. */
  notIndexed: number | null;
  indexed: number | null;
  impressions: number | null;
}

export interface MetadataRow {
  line: number;
  property: string;
  value: string;
}

export interface IssueRow {
  line: number;
  reason: string;
  /** "Website" or "Google systems". */
  source: string | null;
  /** null where the export says "N/A". */
  validation: string | null;
  trend: string | null;
  pages: number | null;
}

export interface SitemapRow {
  line: number;
  sitemap: string;
  type: string | null;
  submitted: IsoDate | null;
  lastRead: IsoDate | null;
  status: string | null;
  discoveredPages: number | null;
  discoveredVideos: number | null;
}

export interface PerformancePageRow {
  line: number;
  url: string;
  clicks: number | null;
  impressions: number | null;
  /** A fraction: "6.56%" is 0.0656. */
  ctr: number | null;
  position: number | null;
}

interface FileBase {
  /** The name as uploaded, or the entry's path inside a zip. */
  name: string;
  /** Header cells not used (extra columns such as a Trend the parser does not need), as written. */
  ignoredColumns: string[];
  /** Day-first or month-first, when slashed dates had to be read (see values.ts). */
  notes: string[];
}

export type GscFile =
  | (FileBase & { kind: 'drilldown-table'; rows: TableRow[] })
  | (FileBase & { kind: 'drilldown-chart'; rows: DrilldownChartRow[] })
  | (FileBase & { kind: 'overview-chart'; rows: OverviewChartRow[] })
  | (FileBase & { kind: 'metadata'; rows: MetadataRow[] })
  | (FileBase & { kind: 'issues'; severity: 'critical' | 'non-critical'; rows: IssueRow[] })
  | (FileBase & { kind: 'sitemaps'; rows: SitemapRow[] })
  | (FileBase & { kind: 'performance-pages'; rows: PerformancePageRow[] });

export type GscFileOf<K extends GscFileKind> = Extract<GscFile, { kind: K }>;

/** What an export's Metadata.csv says it covers. */
export interface ExportDescription {
  /** e.g. "Page with redirect"; null for an overview. */
  issue: string | null;
  /** "All known pages", "All submitted pages" or a sitemap URL. */
  sitemap: string | null;
  source: string | null;
  property: string | null;
  /** Every Property,Value row, as written. */
  other: Record<string, string>;
}

interface ExportBase {
  /** Folder inside the zip (or '' for files at the top or uploaded loose). */
  folder: string;
  /** Every file that went into the export. */
  files: string[];
  description: ExportDescription;
  /** Things the later steps should know (no Metadata.csv, a capped table…). */
  warnings: string[];
}

export interface DrilldownExport extends ExportBase {
  kind: 'drilldown';
  table: GscFileOf<'drilldown-table'> | null;
  chart: GscFileOf<'drilldown-chart'> | null;
  metadata: GscFileOf<'metadata'> | null;
  /** The chart's last known count of affected pages. */
  chartTotal: number | null;
  /** The table lists fewer URLs than the chart counts (Search Console caps a table at 1,000 rows). */
  isTruncated: boolean;
}

export interface OverviewExport extends ExportBase {
  kind: 'overview';
  critical: GscFileOf<'issues'> | null;
  nonCritical: GscFileOf<'issues'> | null;
  chart: GscFileOf<'overview-chart'> | null;
  metadata: GscFileOf<'metadata'> | null;
}

export interface SitemapsExport extends ExportBase {
  kind: 'sitemaps';
  sitemaps: GscFileOf<'sitemaps'>;
}

export interface PerformanceExport extends ExportBase {
  kind: 'performance';
  pages: GscFileOf<'performance-pages'>;
}

export type GscExport = DrilldownExport | OverviewExport | SitemapsExport | PerformanceExport;

export interface IgnoredFile {
  name: string;
  reason: string;
}

export interface GscProblem {
  /** null when the problem is the file as a whole. */
  line: number | null;
  message: string;
}

/** A file (or zip) that cannot be read; the message names the file, the line and what was expected. */
export class GscFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: GscProblem[],
    /** Not a Search Console export at all (a zip lists such an entry as ignored instead). */
    readonly isUnrecognised = false,
    /** Inflates more than an import may (its budget of uncompressed bytes, a zip bomb's ratio): the
     * request answers 413 and the import fails for good, whatever else its files hold. */
    readonly isOverBudget = false,
  ) {
    super(problems.map((p) => `${file}${p.line === null ? '' : ` line ${p.line}`}: ${p.message}`).join('; '));
    this.name = 'GscFileError';
  }
}
