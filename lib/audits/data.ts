// Reads of audits and their sitemap file records, shaped as the API's DTOs.
import 'server-only';
import { db, pool } from '@/lib/db/client';
import { getFindingsOverview } from '@/lib/findings/data';
import { clipForDisplay, displaySql } from '@/lib/findings/display';
import type { Audit, AuditSource, SitemapFile } from '@/lib/generated/prisma/client';
import {
  type AuditDto,
  type AuditError,
  type AuditIssue,
  type AuditTimings,
  type CrawlSummary,
  type SitemapFileDto,
  settingsOf,
  type TAuditSettings,
  ZAuditOptions,
} from './schema';

type AuditWithSources = Omit<Audit, 'findingsSummary'> & {
  sources?: Pick<AuditSource, 'role' | 'kind' | 'url' | 'fileName'>[];
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
    progress: { done: audit.progressDone, total: audit.progressTotal },
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
    findings: null,
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
export async function auditSettingsOf(id: string): Promise<TAuditSettings | null> {
  const { rows } = await pool().query<{ settings: unknown }>('SELECT settings FROM audits WHERE id = $1', [
    id,
  ]);
  return rows[0] ? settingsOf(rows[0].settings) : null;
}

export async function getAudit(id: string): Promise<AuditDto | null> {
  const audit = await db().audit.findUnique({
    where: { id },
    include: { sources: { select: sourceFields } },
    omit: UNBOUNDED,
  });
  if (!audit) return null;
  const issues = (await boundedIssuesOf([id])).get(id) ?? { warnings: [], errors: [] };
  return {
    ...toAuditDto({ ...audit, ...issues }),
    findings: audit.reconciledAt ? await getFindingsOverview(id) : null,
  };
}

export interface AuditPage {
  items: AuditDto[];
  nextCursor: string | null;
}

/** Newest first, keyset-paginated on (created_at, id). */
export async function listAudits(limit: number, cursor?: string): Promise<AuditPage> {
  const after = cursor
    ? await db().audit.findUnique({ where: { id: cursor }, select: { createdAt: true, id: true } })
    : null;
  const rows = await db().audit.findMany({
    where: after
      ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
      : undefined,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    include: { sources: { select: sourceFields } },
    omit: UNBOUNDED,
  });
  const page = rows.slice(0, limit);
  const issues = await boundedIssuesOf(page.map((a) => a.id));
  return {
    items: page.map((a) => toAuditDto({ ...a, ...(issues.get(a.id) ?? { warnings: [], errors: [] }) })),
    nextCursor: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

export function toSitemapFileDto(file: SitemapFile): SitemapFileDto {
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
  };
}

export interface SitemapFilePage {
  items: SitemapFileDto[];
  nextCursor: number | null;
  total: number;
}

/** Files in reading order, keyset-paginated on position (unique per audit: the walk numbers the files it
 * reads), and how many the audit has. Reading order is breadth first, so a page never holds a file whose
 * parent is on a later page: the pages read so far always make a tree. */
export async function listSitemapFiles(
  auditId: string,
  limit = 10_000,
  after?: number,
): Promise<SitemapFilePage> {
  const [files, total] = await Promise.all([
    db().sitemapFile.findMany({
      where: { auditId, ...(after === undefined ? {} : { position: { gt: after } }) },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    }),
    // Counted on the (audit_id, position) index.
    db().sitemapFile.count({ where: { auditId } }),
  ]);
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
