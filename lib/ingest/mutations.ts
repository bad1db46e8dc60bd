// Database writes of the ingest job: claiming the audit, file records, bulk COPY of entries and crawl
// rows, heartbeats and the final counts. Every write is scoped to one audit and one attempt.
import type { CrawlRow } from '@/lib/crawl/types';
import { db, pool } from '@/lib/db/client';
import { copyValue } from '@/lib/db/copy';
import { dropPartition, PartitionLoad } from '@/lib/db/partitions';
import type { SitemapUrlEntry } from '@/lib/sitemap/types';
import { type NormalizationProfile, normalizeUrl, urlKeys } from '@/lib/urls/normalize';
import type { EntryWriter, FileOutcome, NewFileRecord } from './tree-types';

export async function claimAudit(auditId: string, attempt: number) {
  const { count } = await db().audit.updateMany({
    where: { id: auditId, attempt, status: { in: ['queued', 'running'] } },
    data: {
      status: 'running',
      phase: 'starting',
      heartbeatAt: new Date(),
      startedAt: new Date(),
      finishedAt: null,
      errorMessage: null,
    },
  });
  if (count === 0) return null;
  return db().audit.findUnique({ where: { id: auditId }, include: { sources: { orderBy: { id: 'asc' } } } });
}

/** Removes whatever an earlier, interrupted attempt wrote, so a retry never duplicates rows. */
export async function resetIngestRows(auditId: string): Promise<void> {
  await dropPartition('sitemap_entries', auditId);
  await dropPartition('crawl_pages', auditId);
  const client = await pool().connect();
  try {
    await client.query('BEGIN');
    await client.query('DELETE FROM sitemap_files WHERE audit_id = $1', [auditId]);
    await client.query(
      `UPDATE audits SET sitemap_files = 0, sitemap_files_failed = 0, sitemap_entries = 0, sitemap_unique_urls = 0,
         crawl_rows = 0, crawl_rows_rejected = 0, crawl_report = NULL, warnings = '[]', errors = '[]',
         progress_done = 0, progress_total = 0 WHERE id = $1`,
      [auditId],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** Running totals shown while a job runs; the final ones are recomputed from the stored rows. */
export interface RunningCounts {
  sitemapFiles?: number;
  sitemapFilesFailed?: number;
  sitemapEntries?: number;
  crawlRows?: number;
  crawlRowsRejected?: number;
}

/** Records progress; returns false when the audit was deleted or taken over by a newer attempt. */
export async function heartbeat(
  auditId: string,
  attempt: number,
  progress: { phase: string; done: number; total: number; counts: RunningCounts },
): Promise<boolean> {
  const { count } = await db().audit.updateMany({
    where: { id: auditId, attempt, status: 'running' },
    data: {
      phase: progress.phase,
      progressDone: progress.done,
      progressTotal: progress.total,
      heartbeatAt: new Date(),
      ...progress.counts,
    },
  });
  return count > 0;
}

export async function createFileRecord(
  auditId: string,
  position: number,
  record: NewFileRecord,
): Promise<number> {
  const file = await db().sitemapFile.create({
    data: {
      auditId,
      position,
      parentId: record.parentId,
      url: record.url,
      uploadName: record.uploadName,
      kind: record.kind,
      depth: record.depth,
      status: 'pending',
    },
    select: { id: true },
  });
  return file.id;
}

export async function finishFileRecord(id: number, outcome: FileOutcome): Promise<void> {
  await db().sitemapFile.update({
    where: { id },
    data: {
      status: outcome.status,
      kind: outcome.kind ?? undefined,
      httpStatus: outcome.httpStatus,
      finalUrl: outcome.finalUrl,
      compressedBytes: outcome.compressedBytes === null ? null : BigInt(outcome.compressedBytes),
      uncompressedBytes: outcome.uncompressedBytes === null ? null : BigInt(outcome.uncompressedBytes),
      entries: outcome.entries,
      partial: outcome.partial,
      errorCode: outcome.error?.code ?? null,
      errorMessage: outcome.error?.message ?? null,
      errorLine: outcome.error?.line ?? null,
      errorColumn: outcome.error?.column ?? null,
      warnings: outcome.warnings.map((w) => ({ ...w })),
      etag: outcome.etag ?? null,
      lastModified: outcome.lastModified ?? null,
      fetchedAt: new Date(),
    },
  });
}

const ENTRY_COLUMNS = [
  'audit_id',
  'file_id',
  'position',
  'loc',
  'key',
  'loose_key',
  'lastmod_raw',
  'lastmod',
  'changefreq',
  'priority',
  'images',
  'videos',
  'news',
  'alternates',
] as const;

function entryLine(prefix: string, e: SitemapUrlEntry, profile: NormalizationProfile): string {
  const keys = urlKeys(e.loc, profile);
  return `${prefix}${e.position}\t${copyValue(e.loc)}\t${keys ? copyValue(keys.key) : '\\N'}\t${
    keys ? copyValue(keys.loose) : '\\N'
  }\t${copyValue(e.lastmodRaw)}\t${copyValue(e.lastmod)}\t${copyValue(e.changefreq)}\t${copyValue(e.priority)}\t${
    e.images
  }\t${e.videos}\t${e.news}\t${e.alternates}\n`;
}

export interface EntryLoad {
  /** Entries of one file; files are written one after another. */
  open(fileId: number): EntryWriter;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export async function beginEntryLoad(auditId: string, profile: NormalizationProfile): Promise<EntryLoad> {
  const load = await PartitionLoad.begin('sitemap_entries', auditId);
  return {
    open(fileId) {
      const copy = load.copy(ENTRY_COLUMNS);
      const prefix = `${auditId}\t${fileId}\t`;
      return {
        async write(entries) {
          let chunk = '';
          for (const entry of entries) chunk += entryLine(prefix, entry, profile);
          await copy.write(chunk, entries.length);
        },
        close: () => copy.end(),
      };
    },
    commit: () => load.commit(),
    rollback: () => load.rollback(),
  };
}

const CRAWL_COLUMNS = [
  'audit_id',
  'line',
  'url',
  'key',
  'loose_key',
  'status',
  'canonical',
  'canonical_key',
  'indexable',
  'noindex',
  'blocked_by_robots',
  'crawled_at',
  'depth',
  'redirect_url',
  'redirect_key',
  'content_type',
] as const;

/** Keys a canonical or redirect target (the reader already made it absolute); the common self-reference
 * reuses the page's own key instead of parsing the URL again. */
function relatedKey(
  value: string | null,
  pageUrl: string,
  pageKey: string | null,
  profile: NormalizationProfile,
) {
  if (value === null) return null;
  if (value === pageUrl) return pageKey;
  return normalizeUrl(value, profile);
}

/** The COPY line of a crawl row, or null when its URL cannot be parsed (the row is then rejected). */
function crawlLine(prefix: string, row: CrawlRow, profile: NormalizationProfile): string | null {
  const keys = urlKeys(row.url, profile);
  if (keys === null) return null;
  const key = keys.key;
  return `${prefix}${row.line}\t${copyValue(row.url)}\t${copyValue(key)}\t${copyValue(keys.loose)}\t${copyValue(
    row.status,
  )}\t${copyValue(row.canonical)}\t${copyValue(relatedKey(row.canonical, row.url, key, profile))}\t${copyValue(
    row.indexable,
  )}\t${copyValue(row.noindex)}\t${copyValue(row.blockedByRobots)}\t${copyValue(row.crawledAt)}\t${copyValue(
    row.depth,
  )}\t${copyValue(row.redirectUrl)}\t${copyValue(relatedKey(row.redirectUrl, row.url, key, profile))}\t${copyValue(
    row.contentType,
  )}\n`;
}

export interface CrawlLoad {
  /** Writes the rows whose URL parses; returns the others. */
  write(rows: CrawlRow[]): Promise<CrawlRow[]>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export async function beginCrawlLoad(auditId: string, profile: NormalizationProfile): Promise<CrawlLoad> {
  const load = await PartitionLoad.begin('crawl_pages', auditId);
  const copy = load.copy(CRAWL_COLUMNS);
  const prefix = `${auditId}\t`;
  return {
    async write(rows) {
      let chunk = '';
      const invalid: CrawlRow[] = [];
      for (const row of rows) {
        const line = crawlLine(prefix, row, profile);
        if (line === null) invalid.push(row);
        else chunk += line;
      }
      await copy.write(chunk, rows.length - invalid.length);
      return invalid;
    },
    async commit() {
      await copy.end();
      await load.commit();
    },
    async rollback() {
      await copy.end().catch(() => {});
      await load.rollback();
    },
  };
}

export interface FinalState {
  status: 'succeeded' | 'partial' | 'failed';
  warnings: { code: string; message: string }[];
  errors: { code: string; message: string; source: string | null }[];
  crawlReport: Record<string, unknown> | null;
  crawlRows: number;
  crawlRowsRejected: number;
  errorMessage?: string | null;
  /** The audit goes on to reconciliation: it stays running, queued for the reconcile job. */
  reconcileNext?: boolean;
}

/** Writes the final status with counts computed from the stored rows (the source of truth). */
export async function finalizeAudit(auditId: string, attempt: number, state: FinalState): Promise<boolean> {
  const { rowCount } = await pool().query(
    `UPDATE audits a SET
       status = CASE WHEN $10 THEN 'running'::"AuditStatus" ELSE $3::"AuditStatus" END,
       phase = CASE WHEN $10 THEN 'queued for reconciliation' ELSE 'done' END,
       finished_at = CASE WHEN $10 THEN NULL ELSE now() END, heartbeat_at = now(),
       sitemap_files = f.files, sitemap_files_failed = f.failed,
       sitemap_entries = e.entries, sitemap_unique_urls = e.unique_urls,
       progress_done = f.files, progress_total = f.files,
       crawl_rows = $4, crawl_rows_rejected = $5, crawl_report = $6::jsonb,
       warnings = $7::jsonb, errors = $8::jsonb, error_message = $9
     FROM
       (SELECT count(*)::int AS files, count(*) FILTER (WHERE status = 'failed')::int AS failed
          FROM sitemap_files WHERE audit_id = $1) f,
       (SELECT count(*)::int AS entries, count(DISTINCT key)::int AS unique_urls
          FROM sitemap_entries WHERE audit_id = $1) e
     WHERE a.id = $1 AND a.attempt = $2 AND a.status = 'running'`,
    [
      auditId,
      attempt,
      state.status,
      state.crawlRows,
      state.crawlRowsRejected,
      state.crawlReport === null ? null : JSON.stringify(state.crawlReport),
      JSON.stringify(state.warnings),
      JSON.stringify(state.errors),
      state.errorMessage ?? null,
      state.reconcileNext ?? false,
    ],
  );
  return (rowCount ?? 0) > 0;
}

export async function failAudit(auditId: string, attempt: number, message: string): Promise<void> {
  await db().sitemapFile.updateMany({
    where: { auditId, status: 'pending' },
    data: { status: 'failed', errorCode: 'interrupted', errorMessage: 'Not finished: the ingest failed' },
  });
  await db().audit.updateMany({
    where: { id: auditId, attempt, status: { in: ['queued', 'running'] } },
    data: { status: 'failed', phase: 'failed', errorMessage: message, finishedAt: new Date() },
  });
}
