// Database writes of the ingest step: file records, bulk COPY of entries and crawl rows, and the final
// counts. The audit's state (claim, heartbeat, outcome) is lib/runs' to change.
import 'server-only';
import type pg from 'pg';
import { pool, transaction } from '@/lib/db/client';
import { SqlParams } from '@/lib/db/params';
import { dropPartition, PartitionLoad, partitionName } from '@/lib/db/partitions';
import { RunAbandoned } from '@/lib/runs/progress';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { CRAWL_COLUMNS, ENTRY_COLUMNS, encodeEntries, FactsTally, type LoadFacts } from './copy-lines';
import type { EntryWriter, FileOutcome, NewFileRecord, PreviousCopy } from './tree-types';

/** Removes whatever an earlier, interrupted attempt wrote, so a retry never duplicates rows. */
export async function resetIngestRows(auditId: string): Promise<void> {
  await dropPartition('sitemap_entries', auditId);
  await dropPartition('crawl_pages', auditId);
  await transaction(async (client) => {
    await client.query('DELETE FROM sitemap_files WHERE audit_id = $1', [auditId]);
    // A built-in crawl follows the ingest and starts over with it (lib/crawler).
    for (const table of ['crawl_frontier', 'crawl_results', 'crawl_inlinks'])
      await client.query(`DELETE FROM ${table} WHERE audit_id = $1`, [auditId]);
    await client.query(
      `UPDATE audits SET crawl_progress = NULL, sitemap_files = 0, sitemap_files_failed = 0, sitemap_entries = 0, sitemap_unique_urls = 0,
         crawl_rows = 0, crawl_rows_rejected = 0, crawl_report = NULL, warnings = '[]', errors = '[]',
         sitemap_duplicate_keys = NULL, sitemap_newest_lastmod = NULL, crawl_duplicate_keys = NULL, crawl_latest_at = NULL,
         crawl_sha256 = NULL, crawl_repeat_of = NULL,
         timings = NULL, reused_files = 0,
         progress_done = 0, progress_total = 0 WHERE id = $1`,
      [auditId],
    );
  });
}

/** Drops the entries and crawl rows a cancelled ingest loaded; its file records (and counters) stay. */
export async function dropIngestRows(auditId: string): Promise<void> {
  await dropPartition('sitemap_entries', auditId);
  await dropPartition('crawl_pages', auditId);
}

/** Drops the crawl rows of an audit (a crawl added later: an earlier attempt's, or a cancelled one's). */
export async function dropCrawlRows(auditId: string): Promise<void> {
  await dropPartition('crawl_pages', auditId);
}

// Every file write of the walk is fenced by its audit still running, and holds a share lock on the audit's
// row while it lands: a cancel or a failure (an UPDATE of that row) waits for a write under way, and a
// write after it changes nothing and stops the walk. So what the audit settles when it ends (the files
// it counts, lib/audits/mutations.ts settleUnfinishedIngest) is never changed by a late write.
const running = (audit: string) =>
  `SELECT 1 FROM audits a WHERE a.id = ${audit} AND a.status = 'running' FOR SHARE`;

export async function createFileRecord(
  auditId: string,
  position: number,
  record: NewFileRecord,
): Promise<number> {
  const { rows } = await pool().query<{ id: number }>(
    `INSERT INTO sitemap_files (audit_id, position, parent_id, url, upload_name, kind, depth, status,
                                listed_loc, listed_lastmod)
     SELECT $1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9 FROM (${running('$1::uuid')}) live
     RETURNING id`,
    [
      auditId,
      position,
      record.parentId,
      record.url,
      record.uploadName,
      record.kind,
      record.depth,
      record.listedLoc ?? null,
      record.listedLastmod ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new RunAbandoned();
  return row.id;
}

export async function finishFileRecord(id: number, outcome: FileOutcome): Promise<void> {
  const warnings = outcome.warnings.map(({ examples, ...w }) =>
    examples ? { ...w, examples: examples.map((e) => ({ ...e })) } : { ...w },
  );
  const { rowCount } = await pool().query(
    `UPDATE sitemap_files f SET status = $2, kind = coalesce($3, f.kind), http_status = $4, final_url = $5,
       compressed_bytes = $6, uncompressed_bytes = $7, entries = $8, partial = $9, error_code = $10,
       error_message = $11, error_line = $12, error_column = $13, warnings = $14::jsonb, etag = $15,
       last_modified = $16, content_type = $17, content_encoding = $18, gzipped = $19, has_bom = $20,
       robots_txt = $21, reused_from = $22, root_tag = coalesce($23, f.root_tag), fetched_at = now()
      WHERE f.id = $1 AND EXISTS (${running('f.audit_id')})`,
    [
      id,
      outcome.status,
      outcome.kind ?? null,
      outcome.httpStatus,
      outcome.finalUrl,
      outcome.compressedBytes,
      outcome.uncompressedBytes,
      outcome.entries,
      outcome.partial,
      outcome.error?.code ?? null,
      outcome.error?.message ?? null,
      outcome.error?.line ?? null,
      outcome.error?.column ?? null,
      JSON.stringify(warnings),
      outcome.etag ?? null,
      outcome.lastModified ?? null,
      outcome.contentType ?? null,
      outcome.contentEncoding ?? null,
      outcome.gzipped ?? null,
      outcome.hasBom ?? null,
      outcome.robotsTxt ?? null,
      outcome.reusedFrom ?? null,
      outcome.rootTag ?? null,
    ],
  );
  if (rowCount !== 1) throw new RunAbandoned();
}

export interface EntryLoad {
  /** Entries of one file; files are written one after another. */
  open(fileId: number): EntryWriter;
  /** Copies an earlier file's entries (a 304), in the same transaction; null when that copy is gone. */
  reuse(fileId: number, copy: PreviousCopy, limit: number): Promise<number | null>;
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
    async reuse(fileId, copy, limit) {
      // Read from the earlier audit's own partition: the read holds its lock until this load commits,
      // so deleting that audit meanwhile waits instead of leaving this one without rows; a partition
      // already dropped fails the statement only, inside its savepoint.
      const from = partitionName('sitemap_entries', copy.auditId);
      const columns = ENTRY_COLUMNS.slice(1).join(', ');
      await load.query('SAVEPOINT reuse_entries');
      let rows: { key: string | null; lastmod: Date | null }[];
      try {
        ({ rows } = await load.query(
          `INSERT INTO "${load.part}" (file_id, ${columns})
           SELECT $1, ${columns} FROM "${from}" WHERE file_id = $2 ORDER BY position LIMIT $3
           RETURNING key, lastmod`,
          [fileId, copy.fileId, limit],
        ));
      } catch (error) {
        // Released too: later COPYs must run in the transaction that created the table (COPY FREEZE).
        await load.query('ROLLBACK TO SAVEPOINT reuse_entries');
        await load.query('RELEASE SAVEPOINT reuse_entries');
        if ((error as { code?: string }).code === UNDEFINED_TABLE) return null;
        throw error;
      }
      await load.query('RELEASE SAVEPOINT reuse_entries');
      // The facts stay exact (distinct keys, newest lastmod) as if the rows had been parsed.
      for (const row of rows) tally.add(row.key, row.lastmod);
      return rows.length;
    },
    commit: () => load.commit(),
    rollback: () => load.rollback(),
    facts: () => tally.facts(),
  };
}

const UNDEFINED_TABLE = '42P01';

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

export interface IngestResults {
  warnings: { code: string; message: string }[];
  errors: { code: string; message: string; source: string | null }[];
  crawlReport: Record<string, unknown> | null;
  crawlRows: number;
  crawlRowsRejected: number;
  /** sha256 of the crawl export's bytes (null without a crawl, or when it could not be read whole). */
  crawlSha256: string | null;
  sitemapFacts: LoadFacts;
  crawlFacts: LoadFacts | null;
  /** Seconds per stage (the reconcile step adds its own). */
  timings: { sitemaps: number; crawl: number | null; ingest: number };
}

/** Writes the ingest's counts and reports (in the step's state-change transaction, see lib/runs). The loads
 * counted their rows and keys on the way through; only when a load could not prove its keys distinct (a
 * hash collision, or real duplicates) are they counted here. */
export async function saveIngestResults(client: pg.PoolClient, auditId: string, r: IngestResults) {
  const p = new SqlParams();
  const id = p.add(auditId);
  const crawlKeyed = p.add(r.crawlFacts?.keyed ?? 0);
  await client.query(
    `WITH k AS (
       SELECT coalesce(${p.add(r.sitemapFacts.distinct)}::int,
                       (SELECT count(DISTINCT key)::int FROM sitemap_entries WHERE audit_id = ${id})) AS sitemap,
              CASE WHEN ${crawlKeyed}::int > 0
                   THEN coalesce(${p.add(r.crawlFacts?.distinct ?? null)}::int,
                                 (SELECT count(DISTINCT key)::int FROM crawl_pages WHERE audit_id = ${id})) END AS crawl)
     UPDATE audits a SET
       sitemap_files = f.files, sitemap_files_failed = f.failed, reused_files = f.reused,
       sitemap_entries = ${p.add(r.sitemapFacts.rows)}, sitemap_unique_urls = k.sitemap,
       sitemap_duplicate_keys = ${p.add(r.sitemapFacts.keyed)} - k.sitemap,
       sitemap_newest_lastmod = ${p.add(r.sitemapFacts.latest)},
       crawl_duplicate_keys = ${crawlKeyed} - k.crawl, crawl_latest_at = ${p.add(r.crawlFacts?.latest ?? null)},
       timings = ${p.json(r.timings)},
       progress_done = f.files, progress_total = f.files,
       crawl_rows = ${p.add(r.crawlRows)}, crawl_rows_rejected = ${p.add(r.crawlRowsRejected)},
       crawl_report = ${p.json(r.crawlReport)}, crawl_sha256 = ${p.add(r.crawlSha256)},
       warnings = ${p.json(r.warnings)}, errors = ${p.json(r.errors)}
     FROM
       (SELECT count(*)::int AS files, count(*) FILTER (WHERE status = 'failed')::int AS failed,
               count(*) FILTER (WHERE reused_from IS NOT NULL AND status = 'ok')::int AS reused
          FROM sitemap_files WHERE audit_id = ${id}) f, k
     WHERE a.id = ${id}`,
    p.values,
  );
}

/** What a crawl export added to a settled audit stored (lib/audits/steps/add-crawl.ts). */
export interface CrawlResults {
  warnings: { code: string; message: string }[];
  errors: { code: string; message: string; source: string | null }[];
  crawlReport: Record<string, unknown> | null;
  crawlRows: number;
  crawlRowsRejected: number;
  crawlFacts: LoadFacts | null;
  /** sha256 of the crawl export's bytes, as the ingest stores it (what tells a repeated crawl). */
  crawlSha256: string | null;
  /** Seconds the crawl took; the ingest's other timings stay. */
  crawlSeconds: number;
}

/** Writes a later crawl's counts and reports beside what the sitemap ingest stored (in the step's
 * state-change transaction). Its keys are counted here only when the load could not prove them distinct. */
export async function saveCrawlResults(client: pg.PoolClient, auditId: string, r: CrawlResults) {
  const p = new SqlParams();
  const id = p.add(auditId);
  const crawlKeyed = p.add(r.crawlFacts?.keyed ?? 0);
  await client.query(
    `WITH k AS (
       SELECT CASE WHEN ${crawlKeyed}::int > 0
                   THEN coalesce(${p.add(r.crawlFacts?.distinct ?? null)}::int,
                                 (SELECT count(DISTINCT key)::int FROM crawl_pages WHERE audit_id = ${id})) END AS crawl)
     UPDATE audits a SET
       crawl_duplicate_keys = ${crawlKeyed} - k.crawl, crawl_latest_at = ${p.add(r.crawlFacts?.latest ?? null)},
       timings = coalesce(a.timings, '{}'::jsonb) || jsonb_build_object('crawl', ${p.add(r.crawlSeconds)}::float8),
       crawl_rows = ${p.add(r.crawlRows)}, crawl_rows_rejected = ${p.add(r.crawlRowsRejected)},
       crawl_report = ${p.json(r.crawlReport)}, crawl_sha256 = ${p.add(r.crawlSha256)},
       warnings = ${p.json(r.warnings)}, errors = ${p.json(r.errors)}
     FROM k
     WHERE a.id = ${id}`,
    p.values,
  );
}
