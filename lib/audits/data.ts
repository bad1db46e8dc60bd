// Reads of audits and their sitemap file records, shaped as the API's DTOs.
import { db } from '@/lib/db/client';
import type { Audit, SitemapFile } from '@/lib/generated/prisma/client';
import {
  type AuditDto,
  type AuditError,
  type AuditIssue,
  type CrawlSummary,
  type SitemapFileDto,
  ZAuditOptions,
} from './schema';

function crawlSummary(audit: Audit): CrawlSummary {
  const report = (audit.crawlReport ?? {}) as Partial<CrawlSummary> & { format?: string };
  return {
    rows: audit.crawlRows,
    rowsRejected: audit.crawlRowsRejected,
    format: report.format ?? null,
    mappedColumns: report.mappedColumns ?? {},
    unmappedColumns: report.unmappedColumns ?? [],
    rejections: report.rejections ?? [],
  };
}

export function toAuditDto(audit: Audit): AuditDto {
  const options = ZAuditOptions.safeParse(audit.options);
  return {
    id: audit.id,
    name: audit.name,
    status: audit.status,
    phase: audit.phase,
    progress: { done: audit.progressDone, total: audit.progressTotal },
    options: options.success ? options.data : { normalization: 'exact' },
    createdAt: audit.createdAt.toISOString(),
    startedAt: audit.startedAt?.toISOString() ?? null,
    finishedAt: audit.finishedAt?.toISOString() ?? null,
    sitemap: {
      files: audit.sitemapFiles,
      filesFailed: audit.sitemapFilesFailed,
      entries: audit.sitemapEntries,
      uniqueUrls: audit.sitemapUniqueUrls,
    },
    crawl: crawlSummary(audit),
    warnings: (audit.warnings ?? []) as unknown as AuditIssue[],
    errors: [
      ...((audit.errors ?? []) as unknown as AuditError[]),
      ...(audit.errorMessage ? [{ code: 'audit_failed', message: audit.errorMessage, source: null }] : []),
    ],
  };
}

export async function getAudit(id: string): Promise<AuditDto | null> {
  const audit = await db().audit.findUnique({ where: { id } });
  return audit ? toAuditDto(audit) : null;
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
  });
  const page = rows.slice(0, limit);
  return {
    items: page.map(toAuditDto),
    nextCursor: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

export function toSitemapFileDto(file: SitemapFile): SitemapFileDto {
  return {
    id: file.id,
    parentId: file.parentId,
    url: file.url,
    uploadName: file.uploadName,
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
          message: file.errorMessage ?? '',
          line: file.errorLine,
          column: file.errorColumn,
        }
      : null,
    warnings: (file.warnings ?? []) as unknown as SitemapFileDto['warnings'],
  };
}

export async function listSitemapFiles(auditId: string): Promise<SitemapFileDto[]> {
  const files = await db().sitemapFile.findMany({
    where: { auditId },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
  return files.map(toSitemapFileDto);
}

export async function auditExists(id: string): Promise<boolean> {
  return (await db().audit.count({ where: { id } })) > 0;
}
