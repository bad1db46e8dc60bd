// Reads of audits and their sitemap file records, shaped as the API's DTOs.
import 'server-only';
import { clipForDisplay, displaySql } from '@/lib/core/display';
import { AppError } from '@/lib/core/errors';
import { likeEscape } from '@/lib/core/text';
import type { CrawlProgress } from '@/lib/crawler/types';
import { db, pool } from '@/lib/db/client';
import type { Audit, AuditSource, SitemapFile } from '@/lib/generated/prisma/client';
import { siteSettingsOf } from '@/lib/review/approval/schema';
import { getFindingsOverview } from '@/lib/review/data';
import { stepWorkersOf } from '@/lib/runs/step-workers';
import { type CrawlerDto, crawlerSettingsOf } from './crawler-schema';
import { progressOf } from './progress';
import {
  type AuditDto,
  type AuditError,
  type AuditIssue,
  type AuditListItemDto,
  type AuditPage,
  type AuditStatus,
  type AuditTimings,
  type CrawlSummary,
  PROMINENT_WARNINGS,
  type SitemapFileDto,
  settingsOf,
  type TAuditListQuery,
  ZAuditOptions,
} from './schema';

type AuditWithSources = Omit<Audit, 'findingsSummary'> & {
  sources?: Pick<AuditSource, 'role' | 'kind' | 'url' | 'fileName'>[];
  site?: { host: string; settings: unknown } | null;
};

function crawlSummary(audit: AuditWithSources): CrawlSummary {
  const report = (audit.crawlReport ?? {}) as Partial<CrawlSummary> & { format?: string };
  const source = audit.sources?.find((s) => s.role === 'crawl');
  return {
    source: source
      ? { kind: source.kind === 'url' ? 'url' : 'upload', name: source.url ?? source.fileName ?? '' }
      : null,
    rows: audit.crawlRows,
    rowsRejected: audit.crawlRowsRejected,
    format: report.format ?? null,
    mappedColumns: report.mappedColumns ?? {},
    unmappedColumns: report.unmappedColumns ?? [],
    rejections: report.rejections ?? [],
    sha256: audit.crawlSha256,
    latestAt: audit.crawlLatestAt?.toISOString() ?? null,
    repeatOf: audit.crawlRepeatOf,
    crawler: crawlerOf(audit),
  };
}

/** The built-in crawl's settings (as stored at creation, start URL resolved) and its last totals. */
function crawlerOf(audit: AuditWithSources): CrawlerDto | null {
  const options = ZAuditOptions.safeParse(audit.options);
  const crawler = options.success ? options.data.crawler : undefined;
  if (!crawler) return null;
  return {
    settings: crawlerSettingsOf(crawler),
    progress: (audit.crawlProgress ?? null) as CrawlProgress | null,
  };
}

const sourceFields = { role: true, kind: true, url: true, fileName: true } as const;

export function toAuditDto(audit: AuditWithSources): AuditDto {
  const options = ZAuditOptions.safeParse(audit.options);
  return {
    id: audit.id,
    name: audit.name,
    status: audit.status,
    phase: audit.phase,
    progress: progressOf(audit),
    options: options.success ? options.data : { normalization: 'exact' },
    settings: settingsOf(audit.settings),
    createdAt: audit.createdAt.toISOString(),
    startedAt: audit.startedAt?.toISOString() ?? null,
    finishedAt: audit.finishedAt?.toISOString() ?? null,
    cancelled:
      audit.status === 'cancelled' && audit.cancelledAt
        ? { by: audit.cancelledBy ?? 'unknown', at: audit.cancelledAt.toISOString() }
        : null,
    sitemap: {
      files: audit.sitemapFiles,
      filesFailed: audit.sitemapFilesFailed,
      entries: audit.sitemapEntries,
      uniqueUrls: audit.sitemapUniqueUrls,
    },
    crawl: crawlSummary(audit),
    warnings: ((audit.warnings ?? []) as unknown as AuditIssue[]).map(boundedIssue),
    errors: [
      ...((audit.errors ?? []) as unknown as AuditError[]).map(boundedIssue),
      ...(audit.errorMessage ? [{ code: 'audit_failed', message: audit.errorMessage, source: null }] : []),
    ],
    timings: timingsOf(audit.timings),
    stepWorkers: stepWorkersOf(audit.stepWorkers),
    findings: null,
    siteId: audit.siteId,
    site:
      audit.siteId && audit.site
        ? { id: audit.siteId, host: audit.site.host, settings: siteSettingsOf(audit.site.settings) }
        : null,
    complete: audit.status === 'succeeded',
    reusedFiles: audit.reusedFiles,
    trigger: audit.trigger === 'rerun' || audit.trigger === 'schedule' ? audit.trigger : 'manual',
    rerunOf: audit.rerunOf,
  };
}

/**
 * A JSON array of issues (`warnings`, `errors`) with every message and example cut to the display bound
 * in SQL, at most 100 issues of 10 examples each: examples quote the input, and audits stored before the
 * ingest capped `loc` may hold megabyte URLs there, which would otherwise be read whole on every poll.
 */
function boundedIssuesSql(column: string): string {
  const cut = (text: string) => `to_jsonb(${displaySql(text)})`;
  return `coalesce((
    SELECT jsonb_agg(CASE WHEN jsonb_typeof(w) <> 'object' THEN w ELSE w
      || CASE WHEN jsonb_typeof(w->'message') = 'string'
           THEN jsonb_build_object('message', ${cut(`w->>'message'`)}) ELSE '{}'::jsonb END
      || CASE WHEN jsonb_typeof(w->'examples') = 'array' THEN jsonb_build_object('examples', coalesce((
           SELECT jsonb_agg(${cut('e')} ORDER BY n) FROM jsonb_array_elements_text(w->'examples') WITH ORDINALITY x(e, n)
            WHERE n <= 10), '[]'::jsonb)) ELSE '{}'::jsonb END END ORDER BY i)
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${column}) = 'array' THEN ${column} ELSE '[]'::jsonb END)
           WITH ORDINALITY y(w, i)
     WHERE i <= 100), '[]'::jsonb)`;
}

/** Prisma leaves these out of audit reads: boundedIssuesOf reads the issues cut, and the findings summary
 * (which names every sitemap file by URL) is read, cut, by getFindingsOverview. */
const UNBOUNDED = { warnings: true, errors: true, findingsSummary: true } as const;

type Issues = Pick<Audit, 'warnings' | 'errors'>;

/** The warnings and errors of these audits, cut to the display bound (boundedIssuesSql). */
async function boundedIssuesOf(ids: string[]): Promise<Map<string, Issues>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool().query<Issues & { id: string }>(
    `SELECT id, ${boundedIssuesSql('warnings')} AS warnings, ${boundedIssuesSql('errors')} AS errors
       FROM audits WHERE id = ANY ($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map(({ id, ...issues }) => [id, issues]));
}

/** An issue's message and example URLs cut to the display bound: they quote the input, and audits stored
 * before the ingest capped `loc` may hold megabyte URLs there (shown on every poll of the audit). */
function boundedIssue<T extends AuditIssue>(issue: T): T {
  return {
    ...issue,
    message: clipForDisplay(issue.message),
    ...(issue.examples ? { examples: issue.examples.slice(0, 10).map((e) => clipForDisplay(e)) } : {}),
  };
}

function timingsOf(value: unknown): AuditTimings {
  const timings: AuditTimings = {};
  if (!value || typeof value !== 'object') return timings;
  for (const stage of ['sitemaps', 'crawl', 'ingest', 'reconcile'] as const) {
    const seconds = (value as Record<string, unknown>)[stage];
    if (typeof seconds === 'number') timings[stage] = seconds;
  }
  return timings;
}

/** The audit's settings; null when there is no such audit. */
export async function getAudit(id: string): Promise<AuditDto | null> {
  const audit = await db().audit.findUnique({
    where: { id },
    include: { sources: { select: sourceFields }, site: { select: { host: true, settings: true } } },
    omit: UNBOUNDED,
  });
  if (!audit) return null;
  const issues = (await boundedIssuesOf([id])).get(id) ?? { warnings: [], errors: [] };
  return {
    ...toAuditDto({ ...audit, ...issues }),
    findings: audit.reconciledAt ? await getFindingsOverview(id) : null,
  };
}

interface AuditListRow {
  total: number;
  cursor_found: boolean;
  id: string | null;
  name: string;
  status: AuditStatus;
  phase: string;
  progress_done: number;
  progress_total: number;
  created_at: Date;
  finished_at: Date | null;
  sitemap_files: number;
  sitemap_entries: number;
  crawl_rows: number;
  crawl_given: boolean;
  reconciled: boolean;
  failure: string | null;
  prominent: string[];
  prune: number;
  add: number;
  held: number;
  decided: number;
}

/**
 * One page of the list, newest first, keyset-paginated on (created_at, id), in one statement: the
 * matching audits' count, the page, and its findings per list and decided, summed from finding_counts
 * (kept in step with every decision) on its key, never a query per audit. The cursor is the previous
 * page's last id. 5,000 audits, 225,000 count rows: 6–11 ms a page here, the counts read on their key (a
 * join over `audit_id IN (page)` scanned them all: 51 ms with a tenth of them); the count of the matching
 * audits scans them all (2 ms), so an index on the sort key would not spare it (docs/performance.md).
 */
export async function listAudits(query: TAuditListQuery): Promise<AuditPage> {
  const { rows } = await pool().query<AuditListRow>(
    `WITH matching AS (
       SELECT id, created_at FROM audits
        WHERE ($1::text IS NULL OR status::text = $1) AND ($2::text IS NULL OR name ILIKE $2)),
     after AS (SELECT created_at, id FROM audits WHERE id = $3::uuid),
     page AS (
       SELECT m.id, m.created_at FROM matching m
        WHERE $3::uuid IS NULL OR (m.created_at, m.id) < (SELECT created_at, id FROM after)
        ORDER BY m.created_at DESC, m.id DESC LIMIT $4)
     SELECT (SELECT count(*) FROM matching)::int AS total,
            ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM after)) AS cursor_found,
            a.*, c.*,
            EXISTS (SELECT 1 FROM audit_sources s WHERE s.audit_id = p.id AND s.role = 'crawl') AS crawl_given
       FROM (SELECT 1) one
       LEFT JOIN page p ON true
       -- Per page row, on the primary keys: a join the planner may turn into a scan of every audit's counts.
       LEFT JOIN LATERAL (
         SELECT id, name, status, phase, progress_done, progress_total, created_at, finished_at, sitemap_files,
                sitemap_entries, crawl_rows, reconciled_at IS NOT NULL AS reconciled,
                -- Why a failed audit failed, for its row: the run's message, else its first error's (cut
                -- in SQL: a message can quote the input).
                CASE WHEN status = 'failed' THEN left(coalesce(error_message,
                  CASE WHEN jsonb_typeof(errors) = 'array' THEN errors->0->>'message' END), 300) END AS failure,
                ARRAY(SELECT DISTINCT w->>'code' FROM jsonb_array_elements(
                        CASE WHEN jsonb_typeof(warnings) = 'array' THEN warnings ELSE '[]' END) w
                       WHERE w->>'code' = ANY($5::text[])) AS prominent
           FROM audits WHERE id = p.id) a ON true
       LEFT JOIN LATERAL (
         SELECT coalesce(sum(n) FILTER (WHERE list = 'prune'), 0)::int AS prune,
                coalesce(sum(n) FILTER (WHERE list = 'add'), 0)::int AS add,
                coalesce(sum(n) FILTER (WHERE list = 'held'), 0)::int AS held,
                coalesce(sum(n) FILTER (WHERE decision <> 'pending'), 0)::int AS decided
           FROM finding_counts WHERE audit_id = p.id) c ON true
      ORDER BY p.created_at DESC, p.id DESC`,
    [
      query.status ?? null,
      query.q ? `%${likeEscape(query.q)}%` : null,
      query.cursor ?? null,
      query.limit + 1,
      PROMINENT_WARNINGS,
    ],
  );
  const first = rows[0];
  if (first && !first.cursor_found) {
    throw new AppError(
      'validation_failed',
      'cursor is not valid: that audit was deleted; start from the first page',
    );
  }
  const found = rows.filter((r): r is AuditListRow & { id: string } => r.id !== null);
  const page = found.slice(0, query.limit);
  return {
    items: page.map(toAuditListItem),
    total: first?.total ?? 0,
    nextCursor: found.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

function toAuditListItem(row: AuditListRow & { id: string }): AuditListItemDto {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    phase: row.phase,
    progress: progressOf({
      phase: row.phase,
      progressDone: row.progress_done,
      progressTotal: row.progress_total,
      sitemapFiles: row.sitemap_files,
      crawlRows: row.crawl_rows,
    }),
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    sitemap: { files: row.sitemap_files, entries: row.sitemap_entries },
    crawl: { rows: row.crawl_rows, given: row.crawl_given },
    failure: row.failure,
    prominentWarnings: row.prominent ?? [],
    findings: row.reconciled
      ? { prune: row.prune, add: row.add, held: row.held, decided: row.decided }
      : null,
  };
}

export function toSitemapFileDto(file: Omit<SitemapFile, 'robotsTxt'>): SitemapFileDto {
  return {
    id: file.id,
    parentId: file.parentId,
    position: file.position,
    // Cut for display (a file's URL comes from a sitemap index's <loc>); the reads hold at most the
    // index files' own bytes, which the ingest caps.
    url: clipForDisplay(file.url),
    uploadName: clipForDisplay(file.uploadName),
    kind: file.kind,
    depth: file.depth,
    status: file.status as SitemapFileDto['status'],
    partial: file.partial,
    httpStatus: file.httpStatus,
    compressedBytes: file.compressedBytes === null ? null : Number(file.compressedBytes),
    uncompressedBytes: file.uncompressedBytes === null ? null : Number(file.uncompressedBytes),
    entries: file.entries,
    error: file.errorCode
      ? {
          code: file.errorCode,
          message: clipForDisplay(file.errorMessage ?? ''),
          line: file.errorLine,
          column: file.errorColumn,
        }
      : null,
    warnings: (file.warnings ?? []) as unknown as SitemapFileDto['warnings'],
    reusedFrom: file.reusedFrom,
  };
}

export interface SitemapFilePage {
  items: SitemapFileDto[];
  nextCursor: number | null;
  total: number;
}

/** Files in reading order, keyset-paginated on position (unique per audit: the walk numbers the files it
 * reads), and how many the audit has. Reading order is breadth first, so a page never holds a file whose
 * parent is on a later page: the pages read so far always make a tree.
 *
 * While the audit runs, only the files its counters have counted are listed (the tree
 * never shows a file the tiles do not count yet). The walk creates and finishes one file at a time, in
 * position order, and its counters say how many it finished: those are exactly positions 1..sitemap_files,
 * while the rows themselves run up to a heartbeat (500 ms) ahead of the counters. */
export async function listSitemapFiles(
  auditId: string,
  limit = 10_000,
  after?: number,
): Promise<SitemapFilePage> {
  // One snapshot for the counters, the page and the count: while an audit runs, files are added between
  // two statements, and a count read after the page said "16 files … among the first 14" of a 14-file answer.
  const [files, total] = await db().$transaction(
    async (tx) => {
      const audit = await tx.audit.findUnique({
        where: { id: auditId },
        select: { status: true, sitemapFiles: true },
      });
      const counted = audit?.status === 'running' ? { lte: audit.sitemapFiles } : {};
      const page = await tx.sitemapFile.findMany({
        where: { auditId, position: { ...counted, ...(after === undefined ? {} : { gt: after }) } },
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
        take: limit + 1,
        // A robots.txt row keeps its body (up to 500 KiB) for the lint; the file list never shows it.
        omit: { robotsTxt: true },
      });
      // Counted on the (audit_id, position) index.
      return [page, await tx.sitemapFile.count({ where: { auditId, position: counted } })] as const;
    },
    { isolationLevel: 'RepeatableRead' },
  );
  const page = files.slice(0, limit);
  return {
    items: page.map(toSitemapFileDto),
    nextCursor: files.length > limit ? (page[page.length - 1]?.position ?? null) : null,
    total,
  };
}

export async function auditExists(id: string): Promise<boolean> {
  return (await db().audit.count({ where: { id } })) > 0;
}

/** What an audit's steps read of it: its options, sources and what earlier steps recorded. */
export async function auditForRun(id: string) {
  return db().audit.findUnique({ where: { id }, include: { sources: { orderBy: { id: 'asc' } } } });
}

/** What a repeated run copies of an audit (lib/audit-runs/site-runs.ts): its name, site, options, settings, sources. */
export async function getAuditSources(id: string) {
  return db().audit.findUnique({
    where: { id },
    select: {
      id: true,
      name: true,
      siteId: true,
      options: true,
      settings: true,
      sources: {
        orderBy: { id: 'asc' },
        select: { role: true, kind: true, url: true, fileName: true, storedPath: true, bytes: true },
      },
    },
  });
}

/** What decides whether a crawl export can be added to an audit now (lib/audit-runs/add-crawl.ts). */
export async function crawlAddState(id: string) {
  const { rows } = await pool().query<{
    status: string;
    step: string | null;
    entries: number;
    reconciled: boolean;
    normalization: string;
    crawl: string | null;
  }>(
    `SELECT a.status::text AS status, a.step, a.sitemap_entries AS entries, a.reconciled_at IS NOT NULL AS reconciled,
            a.normalization,
            (SELECT coalesce(s.file_name, s.url, 'a crawl export') FROM audit_sources s
              WHERE s.audit_id = a.id AND s.role = 'crawl' ORDER BY s.id LIMIT 1) AS crawl
       FROM audits a WHERE a.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** An audit whose sitemaps were read (its ingest finished with entries), for what needs only them (Search
 * Console imports, against the declared files); 404 without the audit, 409 before or without entries. */
export async function auditWithSitemaps(id: string): Promise<{ name: string }> {
  const { rows } = await pool().query<{ name: string; read: boolean; entries: number }>(
    'SELECT name, timings IS NOT NULL AS read, sitemap_entries AS entries FROM audits WHERE id = $1',
    [id],
  );
  const audit = rows[0];
  if (!audit) throw new AppError('not_found', 'No such audit');
  if (!audit.read) throw new AppError('conflict', 'This audit has not read its sitemaps yet');
  if (audit.entries === 0) throw new AppError('conflict', 'This audit declares no sitemap URL');
  return { name: audit.name };
}
