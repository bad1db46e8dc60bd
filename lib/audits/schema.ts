// Shapes of audit input and output (isomorphic: used by route handlers, the worker and the UI).

import { z } from 'zod';
import { zHttpUrl, zText } from '@/lib/core/text';
import type { FindingsOverview } from '@/lib/findings/schema';
import type { StepWorkerRecord } from '@/lib/runs/step-workers';
import type { TSiteSettings } from '@/lib/sites/schema';
import { type CrawlerDto, ZCrawlerRequest } from './crawler-schema';

export const CRAWL_FIELDS = [
  'url',
  'status',
  'canonical',
  'indexable',
  'noindex',
  'crawledAt',
  'depth',
  'redirectUrl',
  'contentType',
  'blockedByRobots',
  'inlinks',
] as const;

const httpUrl = zHttpUrl();

export const ZAuditOptions = z
  .object({
    normalization: z.enum(['exact', 'lenient']).default('exact'),
    crawlFormat: z.enum(['jsonl', 'screaming-frog', 'csv']).optional(),
    columnMap: z.partialRecord(z.enum(CRAWL_FIELDS), zText().trim().min(1).max(200)).optional(),
    /** When the crawl ran, if the export has no crawl times (else the latest crawl time is used). */
    crawlTime: z.iso.datetime({ offset: true }).optional(),
    /** `hold` (default): a declared URL the crawl saw answer 5xx or 429 is held as `server_error`, since
     * one bad minute of a server is no reason to drop it; `prune`: pruned as `http_<status>`, as the
     * playbook's script does. */
    serverErrors: z.enum(['hold', 'prune']).optional(),
    /** Crawl the site itself (lib/crawler) instead of importing a crawl export; its defaults filled in. */
    crawler: ZCrawlerRequest.optional(),
  })
  .strict();
export type TAuditOptions = z.infer<typeof ZAuditOptions>;

export { settingsOf, type TAuditSettings, ZAuditSettings } from '@/lib/review/approval/schema';

import { type TAuditSettings, ZAuditSettings } from '@/lib/review/approval/schema';

/** `PATCH /api/v1/audits/{id}`: the settings to change (others keep their value). */
export const ZAuditPatch = z.object({ settings: ZAuditSettings.partial().strict() }).strict();
export type TAuditPatch = z.infer<typeof ZAuditPatch>;

/** An audit's name as given (JSON or multipart); empty means "make one up". */
export const ZAuditName = zText().trim().max(200);

export const ZCreateAuditJson = z
  .object({
    name: ZAuditName.optional(),
    sitemapUrls: z.array(httpUrl).min(1, 'give at least one sitemap URL').max(100),
    crawlUrl: httpUrl.optional(),
    /** Crawl the site instead of importing an export (exclusive with crawlUrl). */
    crawler: ZCrawlerRequest.optional(),
    options: ZAuditOptions.optional(),
  })
  .strict();
export type TCreateAuditJson = z.infer<typeof ZCreateAuditJson>;

export const ZSitemapUrl = httpUrl;

/** The crawl options `POST /audits/{id}/crawl` takes (the New audit form's, for its crawl export).
 * `normalization` may be sent, as the form sends it, but only as the audit's own: its entries were keyed so. */
export const ZAddCrawlOptions = ZAuditOptions.omit({ crawler: true }).partial();
export type TAddCrawlOptions = z.infer<typeof ZAddCrawlOptions>;

/** `POST /audits/{id}/crawl` as JSON: the export's URL and its options. */
export const ZAddCrawlJson = z.object({ crawlUrl: httpUrl, options: ZAddCrawlOptions.optional() }).strict();

export type AuditStatus = 'queued' | 'running' | 'succeeded' | 'partial' | 'failed' | 'cancelled';

/** Warnings that question the whole result (the crawl does not match the sitemap): an audit that
 * succeeded with one reads "Succeeded with warnings" wherever its status shows. */
export const PROMINENT_WARNINGS = ['crawl_mismatch'] as const;

/** The prominent warning codes among an audit's warnings. */
export function prominentWarningsOf(warnings: readonly { code: string }[]): string[] {
  return warnings
    .map((w) => w.code)
    .filter((code) => (PROMINENT_WARNINGS as readonly string[]).includes(code));
}
export const FINAL_STATUSES: readonly AuditStatus[] = ['succeeded', 'partial', 'failed', 'cancelled'];

export interface AuditIssue {
  code: string;
  message: string;
  /** How many URLs it is about, and up to 10 of them, for warnings about URLs (signals). */
  count?: number;
  examples?: string[];
}

export interface AuditError extends AuditIssue {
  source: string | null;
}

export interface CrawlSummary {
  /** The crawl export given with the audit (file name or URL), null when none was given. */
  source: { kind: 'upload' | 'url'; name: string } | null;
  rows: number;
  rowsRejected: number;
  format: string | null;
  mappedColumns: Record<string, string>;
  unmappedColumns: string[];
  rejections: { line: number; reason: string }[];
  /** sha256 (hex) of the export's bytes as read; null without a crawl read whole. */
  sha256: string | null;
  /** The latest crawl time the export gives (its crawl date); null when it gives none. */
  latestAt: string | null;
  /** The site's previous complete run whose crawl this run repeated (same bytes or crawl date): its
   * unreached rows were not confirmed across two crawls. Null otherwise. */
  repeatOf: string | null;
  /** The built-in crawler's settings and totals, when the audit crawls the site itself; null otherwise. */
  crawler: CrawlerDto | null;
}

export interface AuditTimings {
  sitemaps?: number;
  crawl?: number;
  ingest?: number;
  reconcile?: number;
}

export interface AuditDto {
  id: string;
  name: string;
  status: AuditStatus;
  phase: string;
  progress: { done: number; total: number };
  options: TAuditOptions;
  settings: TAuditSettings;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Who stopped the audit and when; null unless its status is `cancelled`. */
  cancelled: { by: string; at: string } | null;
  sitemap: { files: number; filesFailed: number; entries: number; uniqueUrls: number };
  crawl: CrawlSummary;
  warnings: AuditIssue[];
  errors: AuditError[];
  /** Seconds each stage took; a stage not run (yet) is absent. The sitemap tree and the crawl export are
   * read at the same time, so `ingest` is less than their sum. */
  timings: AuditTimings;
  /** Which worker took each step of the run, oldest claim first (lib/runs/step-workers.ts). */
  stepWorkers: StepWorkerRecord[];
  /** Reconciliation results; null until the reconcile job has run (and in audit lists). */
  findings: FindingsOverview | null;
  /** The site (host) the audit belongs to (lib/sites); null until known (an upload, before ingest). */
  siteId: string | null;
  /** Its site's host and settings (for the audit page's "Site:" line and the site's approval rule). */
  site: { id: string; host: string; settings: TSiteSettings } | null;
  /** Succeeded with every file read: a complete run, the only kind that makes a site's change events. */
  complete: boolean;
  /** Sitemap files the server answered 304 Not Modified, whose stored entries were reused. */
  reusedFiles: number;
  /** How the run started, and the audit whose sources it repeated. */
  trigger: 'manual' | 'rerun' | 'schedule';
  rerunOf: string | null;
}

export interface SitemapFileDto {
  id: number;
  parentId: number | null;
  /** Order in which the file was read (1-based); the cursor of the file list. */
  position: number;
  url: string | null;
  uploadName: string | null;
  kind: string | null;
  depth: number;
  status: 'pending' | 'ok' | 'failed' | 'skipped';
  partial: boolean;
  httpStatus: number | null;
  compressedBytes: number | null;
  uncompressedBytes: number | null;
  entries: number;
  error: { code: string; message: string; line: number | null; column: number | null } | null;
  warnings: { code: string; message: string }[];
  /** Answered 304 Not Modified: the id of the earlier audit's file whose entries were reused. */
  reusedFrom: number | null;
}

/** Statuses the audits list filters by. */
export const AUDIT_STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'] as const;

/** An empty query-string value is "not given". */
const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** `GET /audits`: the filters and page of the list (limit 1–100, default 25; the cursor is an audit id). */
export const ZAuditListQuery = z
  .object({
    status: z.preprocess(blankIsAbsent, z.enum(AUDIT_STATUSES).optional()),
    /** Part of the name, any case; `%` and `_` match themselves. */
    q: zText()
      .trim()
      .max(200)
      .transform((v) => (v === '' ? undefined : v))
      .optional(),
    limit: z.preprocess(blankIsAbsent, z.coerce.number().int().min(1).max(100).default(25)),
    cursor: z.preprocess(blankIsAbsent, z.uuid({ error: 'cursor is not valid' }).toLowerCase().optional()),
  })
  .strict();
export type TAuditListQuery = z.infer<typeof ZAuditListQuery>;

/** One audit in the list: its run and counts, without the issues and reports of the audit's own page. */
export interface AuditListItemDto {
  id: string;
  name: string;
  status: AuditStatus;
  phase: string;
  /** Derived as on the audit's page (lib/audits/progress.ts), so both always say the same. */
  progress: { done: number; total: number };
  createdAt: string;
  finishedAt: string | null;
  sitemap: { files: number; entries: number };
  crawl: { rows: number; given: boolean };
  /** Why a failed audit failed (its message, else its first error's; up to 300 characters); null unless
   * failed. */
  failure: string | null;
  /** Its PROMINENT_WARNINGS codes (e.g. crawl_mismatch), shown as "Succeeded with warnings". */
  prominentWarnings: string[];
  /** Findings per list and how many of them are decided (approved or rejected); null until reconciled. */
  findings: { prune: number; add: number; held: number; decided: number } | null;
}

/** `GET /audits`: newest first; `total` counts every audit matching the filters; `nextCursor` is the
 * last item's id while there are more. */
export interface AuditPage {
  items: AuditListItemDto[];
  total: number;
  nextCursor: string | null;
}

/** `POST /audits` (202): the new audit's id; its work is queued. */
export interface CreatedAuditDto {
  id: string;
  status: 'queued';
}

/** `GET /audits/{id}/sitemaps`: files in reading order; `nextCursor` is a position. */
export interface SitemapFilePage {
  items: SitemapFileDto[];
  nextCursor: number | null;
  /** Files of the audit in all (every page). */
  total: number;
}

export function isFinal(status: AuditStatus): boolean {
  return FINAL_STATUSES.includes(status);
}
