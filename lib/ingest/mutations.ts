// Database writes of the ingest job: claiming the audit, file records, bulk COPY of entries and crawl
// rows, heartbeats and the final counts. Every write is scoped to one audit and one attempt.
import { db, pool, transaction } from '@/lib/db/client';
import { dropPartition, PartitionLoad } from '@/lib/db/partitions';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { CRAWL_COLUMNS, ENTRY_COLUMNS, encodeEntries, FactsTally, type LoadFacts } from './copy-lines';
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
  await transaction(async (client) => {
    await client.query('DELETE FROM sitemap_files WHERE audit_id = $1', [auditId]);
    await client.query(
      `UPDATE audits SET sitemap_files = 0, sitemap_files_failed = 0, sitemap_entries = 0, sitemap_unique_urls = 0,
         crawl_rows = 0, crawl_rows_rejected = 0, crawl_report = NULL, warnings = '[]', errors = '[]',
         sitemap_duplicate_keys = NULL, sitemap_newest_lastmod = NULL, crawl_duplicate_keys = NULL, crawl_latest_at = NULL,
         timings = NULL,
         progress_done = 0, progress_total = 0 WHERE id = $1`,
      [auditId],
    );
  });
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

export interface EntryLoad {
  /** Entries of one file; files are written one after another. */
  open(fileId: number): EntryWriter;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  facts(): LoadFacts;
}

export async function beginEntryLoad(auditId: string, profile: NormalizationProfile): Promise<EntryLoad> {
  const load = await PartitionLoad.begin('sitemap_entries', auditId);
  const tally = new FactsTally();
  return {
    open(fileId) {
      const copy = load.copy(ENTRY_COLUMNS);
      const prefix = `${fileId}\t`;
      return {
        async write(entries) {
          await copy.write(encodeEntries(prefix, entries, profile, tally), entries.length);
        },
        close: () => copy.end(),
      };
    },
    commit: () => load.commit(),
    rollback: () => load.rollback(),
    facts: () => tally.facts(),
  };
}

export interface CrawlLoad {
  /** Writes crawl rows already encoded as COPY lines (see encodeCrawlRows). */
  write(text: string, rows: number): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export async function beginCrawlLoad(auditId: string): Promise<CrawlLoad> {
  const load = await PartitionLoad.begin('crawl_pages', auditId);
  const copy = load.copy(CRAWL_COLUMNS);
  return {
    write: (text, rows) => copy.write(text, rows),
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
  sitemapFacts: LoadFacts;
  crawlFacts: LoadFacts | null;
  /** Seconds per stage (the reconcile job adds its own). */
  timings: { sitemaps: number; crawl: number | null; ingest: number };
  errorMessage?: string | null;
  /** The audit goes on to reconciliation: it stays running, queued for the reconcile job. */
  reconcileNext?: boolean;
}

/** Writes the final status and counts. The loads counted their rows and keys on the way through; only when
 * a load could not prove its keys distinct (a hash collision, or real duplicates) are they counted here. */
export async function finalizeAudit(auditId: string, attempt: number, state: FinalState): Promise<boolean> {
  const { sitemapFacts: entries, crawlFacts: crawl } = state;
  const { rowCount } = await pool().query(
    `WITH k AS (
       SELECT coalesce($12::int, (SELECT count(DISTINCT key)::int FROM sitemap_entries WHERE audit_id = $1)) AS sitemap,
              CASE WHEN $15::int > 0
                   THEN coalesce($16::int, (SELECT count(DISTINCT key)::int FROM crawl_pages WHERE audit_id = $1)) END AS crawl)
     UPDATE audits a SET
       status = CASE WHEN $10 THEN 'running'::"AuditStatus" ELSE $3::"AuditStatus" END,
       phase = CASE WHEN $10 THEN 'queued for reconciliation' ELSE 'done' END,
       finished_at = CASE WHEN $10 THEN NULL ELSE now() END, heartbeat_at = now(),
       sitemap_files = f.files, sitemap_files_failed = f.failed,
       sitemap_entries = $11, sitemap_unique_urls = k.sitemap, sitemap_duplicate_keys = $13 - k.sitemap,
       sitemap_newest_lastmod = $14, crawl_duplicate_keys = $15 - k.crawl, crawl_latest_at = $17,
       timings = $18::jsonb,
       progress_done = f.files, progress_total = f.files,
       crawl_rows = $4, crawl_rows_rejected = $5, crawl_report = $6::jsonb,
       warnings = $7::jsonb, errors = $8::jsonb, error_message = $9
     FROM
       (SELECT count(*)::int AS files, count(*) FILTER (WHERE status = 'failed')::int AS failed
          FROM sitemap_files WHERE audit_id = $1) f, k
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
      entries.rows,
      entries.distinct,
      entries.keyed,
      entries.latest,
      crawl?.keyed ?? 0,
      crawl?.distinct ?? null,
      crawl?.latest ?? null,
      JSON.stringify(state.timings),
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
