// Reads of the sitemap lint: what its step grades (the audit's stored files, its entries streamed from a
// server-side cursor, the per-file counts against the prune list) and what the API shows.
import 'server-only';
import { pool } from '@/lib/db/client';
import { streamRows } from '@/lib/db/cursor';
import type { LintExample, Severity } from '@/lib/hygiene/types';
import type { StoredEntry, StoredFile } from './feed';

export interface LintTarget {
  auditId: string;
  siteUrl: string | null;
  /** Whether the audit has a prune list (it was reconciled): without one, no file has dirt. */
  reconciled: boolean;
}

export async function lintOf(runId: string): Promise<LintTarget | null> {
  const { rows } = await pool().query<LintTarget>(
    `SELECT l.audit_id AS "auditId", l.site_url AS "siteUrl", a.reconciled_at IS NOT NULL AS reconciled
       FROM audit_lints l JOIN audits a ON a.id = l.audit_id WHERE l.id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

export interface LintReadiness {
  status: string;
  /** The ingest stored its results: the sitemap files were read (whatever came after). */
  sitemapsRead: boolean;
  reconciled: boolean;
  /** A lint of the audit exists, in any state. */
  linted: boolean;
}

/** What decides whether the audit can be graded; null when there is no such audit. */
export async function lintReadiness(auditId: string): Promise<LintReadiness | null> {
  const { rows } = await pool().query<LintReadiness>(
    `SELECT status::text AS status, timings IS NOT NULL AS "sitemapsRead", reconciled_at IS NOT NULL AS reconciled,
            EXISTS (SELECT 1 FROM audit_lints l WHERE l.audit_id = a.id) AS linted
       FROM audits a WHERE id = $1`,
    [auditId],
  );
  return rows[0] ?? null;
}

/** The audit's run status, or null when there is no such audit. */
export async function auditStatus(auditId: string): Promise<string | null> {
  const { rows } = await pool().query<{ status: string }>('SELECT status FROM audits WHERE id = $1', [
    auditId,
  ]);
  return rows[0]?.status ?? null;
}

/** The audit's sitemap files in walk order (ids are given as the walk creates them). */
export async function storedFiles(auditId: string): Promise<StoredFile[]> {
  const { rows } = await pool().query<StoredFile>(
    `SELECT id, parent_id AS "parentId", url, upload_name AS "uploadName", kind, status, final_url AS "finalUrl",
            uncompressed_bytes::float8 AS "uncompressedBytes", compressed_bytes::float8 AS "compressedBytes",
            entries, error_message AS "errorMessage", error_line AS "errorLine", warnings,
            http_status AS "httpStatus", content_type AS "contentType", content_encoding AS "contentEncoding",
            gzipped, has_bom AS "hasBom", robots_txt AS "robotsTxt", listed_loc AS "indexLoc"
       FROM sitemap_files WHERE audit_id = $1 ORDER BY id`,
    [auditId],
  );
  return rows;
}

/** The audit's entries in file and position order, a batch at a time: memory follows the batch. Entries
 * carry no index, so one sorted cursor beats keyset pages (each page would scan the partition). */
export function streamEntries(auditId: string, batchSize = 5000): AsyncGenerator<StoredEntry[]> {
  return streamRows<StoredEntry>(
    `SELECT file_id AS "fileId", position, loc, lastmod_raw AS "lastmodRaw", lastmod, changefreq,
            priority::float8 AS priority, images, videos, news, alternates
       FROM sitemap_entries WHERE audit_id = $1 ORDER BY file_id, position`,
    [auditId],
    batchSize,
  );
}

/** Per file with URL entries: how many, and how many have a key on the prune list (each entry joined to
 * the distinct prune keys, so a key listed twice in a file counts twice, as two of its entries). A hash
 * join: written as `key IN (subquery)` inside the aggregate's FILTER, Postgres re-scanned the prune list
 * for every entry once it no longer fitted work_mem (1,000,000 × 900,000 rows: still running after 12
 * minutes, holding back the review-index builds that wait for its transaction), against 4 s joined. */
export async function entryCountsAgainstPrune(
  auditId: string,
): Promise<{ fileId: number; entries: number; pruned: number }[]> {
  const { rows } = await pool().query<{ fileId: number; entries: number; pruned: number }>(
    `SELECT e.file_id AS "fileId", count(*)::int AS entries, count(p.key)::int AS pruned
       FROM sitemap_entries e
       LEFT JOIN (SELECT DISTINCT key FROM findings WHERE audit_id = $1 AND list = 'prune') p ON p.key = e.key
      WHERE e.audit_id = $1 GROUP BY e.file_id`,
    [auditId],
  );
  return rows;
}

export interface LintRunRow {
  id: string;
  status: string;
  phase: string;
  errorMessage: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export async function latestLint(auditId: string): Promise<LintRunRow | null> {
  const { rows } = await pool().query<LintRunRow>(
    `SELECT id, status, phase, error_message AS "errorMessage", created_at AS "createdAt",
            finished_at AS "finishedAt"
       FROM audit_lints WHERE audit_id = $1 ORDER BY created_at DESC, id LIMIT 1`,
    [auditId],
  );
  return rows[0] ?? null;
}

export async function activeLint(auditId: string): Promise<string | null> {
  const { rows } = await pool().query<{ id: string }>(
    `SELECT id FROM audit_lints WHERE audit_id = $1 AND status IN ('queued', 'running') LIMIT 1`,
    [auditId],
  );
  return rows[0]?.id ?? null;
}

export interface StoredResult {
  lintId: string;
  finishedAt: Date | null;
  summary: Record<string, unknown> | null;
  rules: { code: string; severity: Severity; count: number; examples: LintExample[] }[];
}

/** The audit's stored result (its last succeeded lint's), or null before the first one. */
export async function storedResult(auditId: string): Promise<StoredResult | null> {
  const { rows } = await pool().query<{
    lintId: string;
    finishedAt: Date | null;
    summary: StoredResult['summary'];
  }>(
    `SELECT l.id AS "lintId", l.finished_at AS "finishedAt", l.summary FROM audit_lints l
      WHERE l.audit_id = $1 AND l.status = 'succeeded' ORDER BY l.finished_at DESC NULLS LAST LIMIT 1`,
    [auditId],
  );
  const head = rows[0];
  if (!head) return null;
  const rules = await pool().query<StoredResult['rules'][number]>(
    `SELECT code, severity, count, examples FROM audit_lint_rules WHERE lint_id = $1
      ORDER BY CASE severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, count DESC, code`,
    [head.lintId],
  );
  return { ...head, rules: rules.rows };
}

export interface StoredFileDirt {
  fileId: number;
  url: string;
  entries: number;
  pruned: number;
  dirt: number;
  flagged: boolean;
}

/** A page of the stored files, dirtiest first, with how many there are. */
export async function storedFileDirt(
  lintId: string,
  limit: number,
  offset: number,
): Promise<{ files: StoredFileDirt[]; total: number; flagged: number }> {
  const [page, totals] = await Promise.all([
    pool().query<StoredFileDirt>(
      `SELECT file_id AS "fileId", url, entries, pruned, dirt, flagged FROM audit_lint_files
        WHERE lint_id = $1 ORDER BY dirt DESC, pruned DESC, file_id LIMIT $2 OFFSET $3`,
      [lintId, limit, offset],
    ),
    pool().query<{ total: number; flagged: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE flagged)::int AS flagged
         FROM audit_lint_files WHERE lint_id = $1`,
      [lintId],
    ),
  ]);
  return { files: page.rows, total: totals.rows[0]?.total ?? 0, flagged: totals.rows[0]?.flagged ?? 0 };
}
