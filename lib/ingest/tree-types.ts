// Shapes shared by the sitemap tree walk and its caller: the sources it reads, the records and outcomes
// it reports, and the sink the job handler supplies so the walk itself never touches the database.

import type { SafeFetchOptions } from '@/lib/net/types';
import type { SitemapUrlEntry, SitemapWarning } from '@/lib/sitemap/types';
import type { WalkLimits } from './limits';

export interface UploadSource {
  fileName: string;
  /** Its key in the upload store (lib/storage), or an absolute path (older rows, tests). */
  storedPath: string;
}

export interface NewFileRecord {
  parentId: number | null;
  url: string | null;
  uploadName: string | null;
  kind: string | null;
  depth: number;
  /** A child of an index: the <loc> and <lastmod> as the index declared them. */
  listedLoc?: string | null;
  listedLastmod?: string | null;
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
  /** An XML sitemap's root start tag as read (ParseStats.rootTag). */
  rootTag?: string | null;
  /** A robots.txt's body, its first 500 KiB (what Google reads). */
  robotsTxt?: string;
  /** Answered 304 Not Modified: the earlier audit's file whose entries were reused. */
  reusedFrom?: number | null;
}

/** The same URL's file in the site's previous audit, which a 304 Not Modified lets this audit reuse
 * (lib/ingest/data.ts finds them; conditional.ts says what is sent and what a reused file records). */
export interface PreviousCopy {
  fileId: number;
  auditId: string;
  etag: string | null;
  lastModified: string | null;
  kind: string | null;
  /** URL entries plus child sitemaps, as its outcome counted them. */
  entries: number;
  /** An index's child sitemap URLs in their order (empty for a urlset). */
  children: string[];
  /** How it was served, carried over: a 304 says the content is the same. */
  compressedBytes: number | null;
  uncompressedBytes: number | null;
  contentType: string | null;
  contentEncoding: string | null;
  gzipped: boolean | null;
  hasBom: boolean | null;
  warnings: SitemapWarning[];
  /** Its root start tag, and its children's declared lastmods (an index), for the corrected set. */
  rootTag?: string | null;
  childLastmods?: (string | null)[];
}

export interface TreeSink {
  createFile(record: NewFileRecord): Promise<number>;
  /** Receives the entries of one file in order; returns when they are written. */
  openEntries(fileId: number): Promise<EntryWriter>;
  finishFile(fileId: number, outcome: FileOutcome): Promise<void>;
  /** Copies at most `limit` URL entries of an earlier file to `fileId` (a 304); null when that copy is
   * gone (its audit deleted since the walk began). Needed only with WalkOptions.previous. */
  reuseEntries?(fileId: number, copy: PreviousCopy, limit: number): Promise<number | null>;
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
  /** Files answered 304 Not Modified whose earlier copy was reused. */
  reused: number;
  errors: TreeIssue[];
  warnings: TreeIssue[];
}

export interface WalkOptions {
  limits: WalkLimits;
  fetch?: SafeFetchOptions;
  signal?: AbortSignal;
  /** The site's previous copies by requested URL: those files are fetched conditionally. */
  previous?: ReadonlyMap<string, PreviousCopy>;
}
