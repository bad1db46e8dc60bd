// Shapes shared by the sitemap tree walk and its caller: the sources it reads, the records and outcomes
// it reports, and the sink the job handler supplies so the walk itself never touches the database.

import type { SafeFetchOptions } from '@/lib/net/types';
import type { SitemapUrlEntry, SitemapWarning } from '@/lib/sitemap/types';
import type { WalkLimits } from './limits';

export interface UploadSource {
  fileName: string;
  storedPath: string;
}

export interface NewFileRecord {
  parentId: number | null;
  url: string | null;
  uploadName: string | null;
  kind: string | null;
  depth: number;
}

export interface FileOutcome {
  status: 'ok' | 'failed' | 'skipped';
  kind: string | null;
  httpStatus: number | null;
  finalUrl: string | null;
  compressedBytes: number | null;
  uncompressedBytes: number | null;
  entries: number;
  partial: boolean;
  error: { code: string; message: string; line?: number; column?: number } | null;
  warnings: SitemapWarning[];
  etag?: string | null;
  lastModified?: string | null;
  /** How a sitemap was served (the lint judges them; undefined: not read, stored as NULL). */
  contentType?: string | null;
  contentEncoding?: string | null;
  gzipped?: boolean;
  hasBom?: boolean;
  /** A robots.txt's body, its first 500 KiB (what Google reads). */
  robotsTxt?: string;
}

export interface TreeSink {
  createFile(record: NewFileRecord): Promise<number>;
  /** Receives the entries of one file in order; returns when they are written. */
  openEntries(fileId: number): Promise<EntryWriter>;
  finishFile(fileId: number, outcome: FileOutcome): Promise<void>;
  /** Called after every file with the running totals (rows become visible only when the load commits). */
  progress(filesDone: number, filesKnown: number, summary: Readonly<TreeSummary>): Promise<void>;
}

export interface EntryWriter {
  write(entries: SitemapUrlEntry[]): Promise<void>;
  close(): Promise<void>;
}

export interface TreeIssue {
  code: string;
  message: string;
  source: string | null;
}

export interface TreeSummary {
  files: number;
  filesFailed: number;
  entries: number;
  errors: TreeIssue[];
  warnings: TreeIssue[];
}

export interface WalkOptions {
  limits: WalkLimits;
  fetch?: SafeFetchOptions;
  signal?: AbortSignal;
}
