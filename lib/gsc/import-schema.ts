// What an import of Search Console exports records and what the API answers about it (isomorphic: the
// app's list of imports reads the same types).
import type { RunStatus } from '@/lib/runs/phases';
import type { ExportDescription, GscFileKind, IgnoredFile } from './types';

/** One upload of the request, as stored until the import's step has read it. */
export interface StoredUpload {
  name: string;
  /** Its key in the upload store (lib/storage); imports queued before it hold an absolute path. */
  storedPath: string;
  bytes: number;
}

/** A file the import read (loose, or an entry of a zip: `upload.zip › folder/Table.csv`). */
export interface ImportedFile {
  name: string;
  kind: GscFileKind;
  rows: number;
  ignoredColumns: string[];
  notes: string[];
}

/** One export the import found, in gsc_imports.exports; its position is `export_index` of its rows. */
export interface ImportedExport {
  kind: 'drilldown' | 'overview' | 'sitemaps' | 'performance';
  folder: string;
  files: string[];
  description: ExportDescription;
  warnings: string[];
  /** Rows of the export's main table (URLs, reasons, sitemaps or pages). */
  rows: number;
  /** Drilldowns: the chart's last count of affected pages, and whether the table lists fewer. */
  chartTotal: number | null;
  isTruncated: boolean;
  /** Drilldowns: what its URLs were stored as (null: not stored, the issue is unknown). */
  urlState: 'indexed' | 'not_indexed' | null;
}

/** Counts of what an import stored. */
export interface ImportSummary {
  /** URL rows stored (drilldown tables and Performance pages with impressions). */
  urls: number;
  indexed: number;
  notIndexed: number;
  /** URL rows whose URL gives no key (not an http(s) URL the audit can normalise). */
  unkeyed: number;
  sitemaps: number;
  chartPoints: number;
  issues: number;
}

export interface ImportProblem {
  name: string;
  problems: { line: number | null; message: string }[];
}

export interface GscImportDto {
  id: string;
  status: RunStatus;
  phase: string;
  phaseLabel: string;
  progress: { done: number; total: number };
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
  /** The uploads of the request (names and sizes; never where they are stored). */
  uploads: { name: string; bytes: number }[];
  files: ImportedFile[];
  exports: ImportedExport[];
  ignored: IgnoredFile[];
  summary: ImportSummary | null;
  problems: ImportProblem[];
  errorMessage: string | null;
}
