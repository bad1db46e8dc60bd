// Exports read from an import's files → the rows the import stores (URL states, Sitemaps report lines,
// overview chart points, issue counts) and what it records about them. Pure: the import step reads the
// files and the mutations write these rows.

import { bucketOf, isIndexedReason } from '@/lib/findings/evidence/gsc-reasons';
import { type NormalizationProfile, urlKeys } from '@/lib/urls/normalize';
import type { ImportedExport, ImportedFile, ImportSummary } from './import-schema';
import type { DrilldownExport, GscExport, GscFile } from './types';

export interface UrlStateRow {
  exportIndex: number;
  line: number;
  url: string;
  key: string | null;
  state: 'indexed' | 'not_indexed';
  reason: string | null;
  bucket: string | null;
  lastCrawled: string | null;
  scope: string | null;
  source: 'drilldown' | 'performance';
}

export interface SitemapReportRow {
  exportIndex: number;
  line: number;
  sitemap: string;
  type: string | null;
  submitted: string | null;
  lastRead: string | null;
  status: string | null;
  discoveredPages: number | null;
  discoveredVideos: number | null;
}

export interface ChartPointRow {
  exportIndex: number;
  date: string;
  indexed: number | null;
  notIndexed: number | null;
  impressions: number | null;
}

export interface IssueCountRow {
  exportIndex: number;
  severity: 'critical' | 'non-critical';
  line: number;
  reason: string;
  bucket: string;
  source: string | null;
  validation: string | null;
  trend: string | null;
  pages: number | null;
}

export interface ImportRows {
  urlStates: UrlStateRow[];
  sitemapReports: SitemapReportRow[];
  chartPoints: ChartPointRow[];
  issueCounts: IssueCountRow[];
  exports: ImportedExport[];
  files: ImportedFile[];
  summary: ImportSummary;
}

/** Issues that name indexed pages (lib/findings/evidence/gsc-reasons.ts isIndexedReason): the Page indexing report's indexed
 * drill-down, the older Coverage report's valid rows and its indexed-with-a-warning rows. */
export function isIndexedIssue(issue: string): boolean {
  return isIndexedReason(issue);
}

/** What a drilldown's URLs are stored as: by its issue; a drilldown with no Issue says nothing. */
export function drilldownState(exp: DrilldownExport): 'indexed' | 'not_indexed' | null {
  const issue = exp.description.issue;
  if (issue === null || issue.trim() === '') return null;
  return isIndexedIssue(issue) ? 'indexed' : 'not_indexed';
}

function filesOf(exp: GscExport): GscFile[] {
  switch (exp.kind) {
    case 'drilldown':
      return [exp.table, exp.chart, exp.metadata].filter((f) => f !== null);
    case 'overview':
      return [exp.critical, exp.nonCritical, exp.chart, exp.metadata].filter((f) => f !== null);
    case 'sitemaps':
      return [exp.sitemaps];
    case 'performance':
      return [exp.pages];
  }
}

function mainRows(exp: GscExport): number {
  switch (exp.kind) {
    case 'drilldown':
      return exp.table?.rows.length ?? 0;
    case 'overview':
      return (exp.critical?.rows.length ?? 0) + (exp.nonCritical?.rows.length ?? 0);
    case 'sitemaps':
      return exp.sitemaps.rows.length;
    case 'performance':
      return exp.pages.rows.length;
  }
}

/** The rows of one export, its record and its files' records: the import stores them and lets them go. */
export interface ExportRows {
  urlStates: UrlStateRow[];
  sitemapReports: SitemapReportRow[];
  chartPoints: ChartPointRow[];
  issueCounts: IssueCountRow[];
  export: ImportedExport;
  files: ImportedFile[];
}

export function emptySummary(): ImportSummary {
  return { urls: 0, indexed: 0, notIndexed: 0, unkeyed: 0, sitemaps: 0, chartPoints: 0, issues: 0 };
}

/** Adds one export's rows to an import's running summary. */
export function addToSummary(summary: ImportSummary, rows: ExportRows): void {
  const indexed = rows.urlStates.filter((r) => r.state === 'indexed').length;
  summary.urls += rows.urlStates.length;
  summary.indexed += indexed;
  summary.notIndexed += rows.urlStates.length - indexed;
  summary.unkeyed += rows.urlStates.filter((r) => r.key === null).length;
  summary.sitemaps += rows.sitemapReports.length;
  summary.chartPoints += rows.chartPoints.length;
  summary.issues += rows.issueCounts.length;
}

export function exportRowsOf(exp: GscExport, exportIndex: number, profile: NormalizationProfile): ExportRows {
  const rows: Omit<ExportRows, 'export'> = {
    urlStates: [],
    sitemapReports: [],
    chartPoints: [],
    issueCounts: [],
    files: [],
  };
  const keyOf = (url: string) => urlKeys(url, profile)?.key ?? null;
  const warnings = [...exp.warnings];
  let urlState: ImportedExport['urlState'] = null;
  if (exp.kind === 'drilldown' && exp.table) {
    urlState = drilldownState(exp);
    const state = urlState;
    if (state === null) {
      warnings.push('no Issue in its Metadata: its URLs are not stored as indexed or not indexed');
    } else {
      const reason = state === 'not_indexed' ? exp.description.issue : null;
      for (const row of exp.table.rows) {
        rows.urlStates.push({
          exportIndex,
          line: row.line,
          url: row.url,
          key: keyOf(row.url),
          state,
          reason,
          bucket: reason === null ? null : bucketOf(reason),
          lastCrawled: row.lastCrawled,
          scope: exp.description.sitemap,
          source: 'drilldown',
        });
      }
    }
  } else if (exp.kind === 'performance') {
    // A page with impressions was shown in results, so Google had it indexed over the report's dates;
    // a page with none says nothing either way.
    for (const row of exp.pages.rows) {
      if ((row.impressions ?? 0) <= 0) continue;
      rows.urlStates.push({
        exportIndex,
        line: row.line,
        url: row.url,
        key: keyOf(row.url),
        state: 'indexed',
        reason: null,
        bucket: null,
        lastCrawled: null,
        scope: null,
        source: 'performance',
      });
    }
  } else if (exp.kind === 'sitemaps') {
    for (const row of exp.sitemaps.rows) {
      const { line, sitemap, type, submitted, lastRead, status, discoveredPages, discoveredVideos } = row;
      rows.sitemapReports.push({
        exportIndex,
        line,
        sitemap,
        type,
        submitted,
        lastRead,
        status,
        discoveredPages,
        discoveredVideos,
      });
    }
  } else if (exp.kind === 'overview') {
    // One point a day: a chart that repeats a date keeps its last line.
    const byDate = new Map<string, ChartPointRow>();
    for (const row of exp.chart?.rows ?? []) {
      const { date, indexed, notIndexed, impressions } = row;
      byDate.set(date, { exportIndex, date, indexed, notIndexed, impressions });
    }
    rows.chartPoints.push(...byDate.values());
    for (const file of [exp.critical, exp.nonCritical]) {
      for (const row of file?.rows ?? []) {
        rows.issueCounts.push({
          exportIndex,
          severity: file?.severity ?? 'critical',
          line: row.line,
          reason: row.reason,
          bucket: bucketOf(row.reason),
          source: row.source,
          validation: row.validation,
          trend: row.trend,
          pages: row.pages,
        });
      }
    }
  }

  for (const file of filesOf(exp)) {
    rows.files.push({
      name: file.name,
      kind: file.kind,
      rows: file.rows.length,
      ignoredColumns: file.ignoredColumns,
      notes: file.notes,
    });
  }
  const record: ImportedExport = {
    kind: exp.kind,
    folder: exp.folder,
    files: exp.files,
    description: exp.description,
    warnings,
    rows: mainRows(exp),
    chartTotal: exp.kind === 'drilldown' ? exp.chartTotal : null,
    isTruncated: exp.kind === 'drilldown' ? exp.isTruncated : false,
    urlState,
  };
  return { ...rows, export: record };
}

/** Every export's rows at once: for tests and small sets (the import stores one export at a time). */
export function importRowsOf(exports: readonly GscExport[], profile: NormalizationProfile): ImportRows {
  const rows: ImportRows = {
    urlStates: [],
    sitemapReports: [],
    chartPoints: [],
    issueCounts: [],
    exports: [],
    files: [],
    summary: emptySummary(),
  };
  exports.forEach((exp, exportIndex) => {
    const one = exportRowsOf(exp, exportIndex, profile);
    rows.urlStates.push(...one.urlStates);
    rows.sitemapReports.push(...one.sitemapReports);
    rows.chartPoints.push(...one.chartPoints);
    rows.issueCounts.push(...one.issueCounts);
    rows.exports.push(one.export);
    rows.files.push(...one.files);
    addToSummary(rows.summary, one);
  });
  return rows;
}
