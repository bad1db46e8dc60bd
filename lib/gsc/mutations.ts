// Writes of Search Console imports: the run row, the rows its step stores one export at a time
// (invisible until the run succeeds: every read joins succeeded imports), its record in the transaction
// of the run's outcome, the removal of a failed attempt's rows and of one import, and its uploads.
import 'server-only';
import { auditUploadPrefix } from '@/lib/audits/uploads';
import { pool } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import { removeStoredPrefix } from '@/lib/storage/store';
import type { ExportRows, ImportRows } from './import-rows';
import type { ImportedExport, ImportedFile, ImportProblem, StoredUpload } from './import-schema';
import type { IgnoredFile } from './types';

/** Where an import's uploads wait for its step in the store: under the audit's own prefix, so deleting
 * the audit removes them too (lib/audits/mutations.ts deleteAudit). */
export function importUploadPrefix(auditId: string, importId: string): string {
  return `${auditUploadPrefix(auditId)}gsc/${importId}/`;
}

export function removeImportUploads(auditId: string, importId: string): Promise<void> {
  return removeStoredPrefix(importUploadPrefix(auditId, importId));
}

export async function insertGscImport(
  id: string,
  auditId: string,
  uploads: readonly StoredUpload[],
  createdBy: string,
  issue: string | null = null,
): Promise<void> {
  await pool().query(
    `INSERT INTO gsc_imports (id, audit_id, uploads, created_by, progress_total, issue)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, auditId, JSON.stringify(uploads), createdBy, uploads.length, issue],
  );
}

/** Rows per INSERT: arrays of 10,000 values keep one statement well under a second. */
const BATCH = 10_000;

/** A transaction's client, or the pool when each batch may commit on its own. */
type Queryable = Pick<DbClient, 'query'>;

async function insertBatched<T>(
  client: Queryable,
  rows: readonly T[],
  sql: string,
  columns: (batch: readonly T[]) => unknown[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    await client.query(sql, columns(rows.slice(start, start + BATCH)));
  }
}

/** One export's rows, batched; written as the export is read, so the worker holds one export at a time. */
export async function insertExportRows(
  importId: string,
  auditId: string,
  rows: Pick<ExportRows, 'urlStates' | 'sitemapReports' | 'chartPoints' | 'issueCounts'>,
  client: Queryable = pool(),
): Promise<void> {
  await insertBatched(
    client,
    rows.urlStates,
    `INSERT INTO gsc_url_states (import_id, audit_id, export_index, line, url, key, state, reason, bucket,
       last_crawled, scope, source)
     SELECT $1, $2, * FROM unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::date[], $11::text[], $12::text[])`,
    (b) => [
      importId,
      auditId,
      b.map((r) => r.exportIndex),
      b.map((r) => r.line),
      b.map((r) => r.url),
      b.map((r) => r.key),
      b.map((r) => r.state),
      b.map((r) => r.reason),
      b.map((r) => r.bucket),
      b.map((r) => r.lastCrawled),
      b.map((r) => r.scope),
      b.map((r) => r.source),
    ],
  );
  await insertBatched(
    client,
    rows.sitemapReports,
    `INSERT INTO gsc_sitemap_reports (import_id, audit_id, export_index, line, sitemap, type, submitted,
       last_read, status, discovered_pages, discovered_videos)
     SELECT $1, $2, * FROM unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::date[], $8::date[],
       $9::text[], $10::int[], $11::int[])`,
    (b) => [
      importId,
      auditId,
      b.map((r) => r.exportIndex),
      b.map((r) => r.line),
      b.map((r) => r.sitemap),
      b.map((r) => r.type),
      b.map((r) => r.submitted),
      b.map((r) => r.lastRead),
      b.map((r) => r.status),
      b.map((r) => r.discoveredPages),
      b.map((r) => r.discoveredVideos),
    ],
  );
  await insertBatched(
    client,
    rows.chartPoints,
    `INSERT INTO gsc_chart_points (import_id, audit_id, export_index, date, indexed, not_indexed, impressions)
     SELECT $1, $2, * FROM unnest($3::int[], $4::date[], $5::int[], $6::int[], $7::int[])`,
    (b) => [
      importId,
      auditId,
      b.map((r) => r.exportIndex),
      b.map((r) => r.date),
      b.map((r) => r.indexed),
      b.map((r) => r.notIndexed),
      b.map((r) => r.impressions),
    ],
  );
  await insertBatched(
    client,
    rows.issueCounts,
    `INSERT INTO gsc_issue_counts (import_id, audit_id, export_index, severity, line, reason, bucket, source,
       validation, trend, pages)
     SELECT $1, $2, * FROM unnest($3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::text[], $11::int[])`,
    (b) => [
      importId,
      auditId,
      b.map((r) => r.exportIndex),
      b.map((r) => r.severity),
      b.map((r) => r.line),
      b.map((r) => r.reason),
      b.map((r) => r.bucket),
      b.map((r) => r.source),
      b.map((r) => r.validation),
      b.map((r) => r.trend),
      b.map((r) => r.pages),
    ],
  );
}

/** Whatever rows an import stored: a failed import, or an attempt that died under a retry. */
export async function deleteImportRows(importId: string, client: Queryable = pool()): Promise<void> {
  for (const table of ['gsc_url_states', 'gsc_sitemap_reports', 'gsc_chart_points', 'gsc_issue_counts']) {
    await client.query(`DELETE FROM ${table} WHERE import_id = $1`, [importId]);
  }
}

/** What an import read, found and stored (or, failed, its problems). */
export async function recordImport(
  client: DbClient,
  importId: string,
  record: {
    files: readonly ImportedFile[];
    exports: readonly ImportedExport[];
    ignored: readonly IgnoredFile[];
    summary: ImportRows['summary'] | null;
    problems: readonly ImportProblem[] | null;
  },
): Promise<void> {
  await client.query(
    `UPDATE gsc_imports SET files = $2, exports = $3, ignored = $4, summary = $5, problems = $6,
       progress_done = progress_total WHERE id = $1`,
    [
      importId,
      JSON.stringify(record.files),
      JSON.stringify(record.exports),
      JSON.stringify(record.ignored),
      record.summary === null ? null : JSON.stringify(record.summary),
      record.problems === null ? null : JSON.stringify(record.problems),
    ],
  );
}

/** Removes one import of the audit and its rows (ON DELETE CASCADE); false when there is none. */
export async function deleteGscImport(auditId: string, importId: string): Promise<boolean> {
  const { rowCount } = await pool().query('DELETE FROM gsc_imports WHERE id = $1 AND audit_id = $2', [
    importId,
    auditId,
  ]);
  await removeImportUploads(auditId, importId);
  return rowCount === 1;
}
