// The exports' reads, streamed so that memory does not grow with the list: JSONL rows in batches from a
// server-side cursor, and the CSV formatted by Postgres itself (COPY ... TO STDOUT). Both take the list
// endpoint's filters and write EXPORT_COLUMNS (csv.ts).
import 'server-only';
import { to as copyTo } from 'pg-copy-streams';
import { pool } from '@/lib/db/client';
import type { FindingDto, TFindingFilter } from '@/lib/findings/schema';
import { replaceWithSql, targetSql } from '@/lib/findings/target';
import type { FindingRow } from '@/lib/findings/types';
import { FINDING_COLUMNS_WHOLE, FINDING_FROM } from '@/lib/review/data';
import { toFindingDto } from '@/lib/review/dto';
import { EXPORT_COLUMNS, NEUTRALISE_PATTERN } from '@/lib/review/export/csv';
import { filterSql, inlineSql } from '@/lib/review/filter-sql';

/** A JSONL batch holds at most this many stored characters (a single longer row goes alone). */
const BATCH_CHARS = 8 * 1024 * 1024;

/** The stored characters of a row that can be long, its sitemap files' URLs included: what a batch is
 * measured by. */
const ROW_CHARS = `coalesce(length(f.url), 0) + coalesce(length(f.canonical), 0) + coalesce(length(f.crawled_url), 0)
  + coalesce(length(f.redirect_url), 0) + coalesce(length(f.variant_url), 0) + coalesce(length(f.note), 0)
  + coalesce(length(sf.url), 0)
  + CASE WHEN cardinality(f.file_ids) > 0 THEN coalesce((
      SELECT sum(coalesce(length(s.url), 0)) FROM sitemap_files s WHERE s.id = ANY (f.file_ids)), 0) ELSE 0 END`;

/**
 * The rows matching the filter in id order, with their stored values whole, a batch at a time. A cursor
 * reads the ids and sizes (small), and each batch of up to `batchSize` rows and BATCH_CHARS characters is
 * then read whole by id: memory follows the batch, never the list, even when rows hold megabytes each.
 */
export async function* streamFindings(
  auditId: string,
  filter: TFindingFilter,
  batchSize = 5000,
): AsyncGenerator<FindingDto[]> {
  const client = await pool().connect();
  try {
    await client.query('BEGIN READ ONLY');
    const f = filterSql(auditId, filter);
    await client.query(
      `DECLARE findings_export NO SCROLL CURSOR FOR
       SELECT f.id, (${ROW_CHARS})::float8 AS chars FROM ${FINDING_FROM} WHERE ${f.sql} ORDER BY f.id`,
      f.params,
    );
    const readWhole = async (ids: number[]) =>
      (
        await client.query<FindingRow>(
          `SELECT ${FINDING_COLUMNS_WHOLE} FROM ${FINDING_FROM}
            WHERE f.audit_id = $1 AND f.id = ANY ($2::int[]) ORDER BY f.id`,
          [auditId, ids],
        )
      ).rows
        // The exports' columns (csv.ts) carry no evidence and no verdict: no crawl time or check needed.
        .map((row) => toFindingDto(row, null));
    for (;;) {
      const { rows } = await client.query<{ id: number; chars: number }>(
        `FETCH ${batchSize} FROM findings_export`,
      );
      if (rows.length === 0) break;
      let ids: number[] = [];
      let chars = 0;
      for (const row of rows) {
        if (ids.length > 0 && chars + row.chars > BATCH_CHARS) {
          yield await readWhole(ids);
          ids = [];
          chars = 0;
        }
        ids.push(row.id);
        chars += row.chars;
      }
      if (ids.length > 0) yield await readWhole(ids);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A cell text no reader runs as a formula, whatever it splits on: neutraliseCell's rule (csv.ts), in SQL.
 * The cheap test first: most cells hold none of the formula characters and skip the regex. */
export function neutralisedSql(column: string): string {
  return `CASE WHEN ${column} ~ '[=+@\\t\\r-]' THEN regexp_replace(${column}, '${NEUTRALISE_PATTERN}', '''', 'g') ELSE ${column} END`;
}
const neutralised = neutralisedSql;

const instant = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Every declaring file's URL (else upload name), `|`-separated: file_ids when several entries declare
 * the key, else the row's one file (`sf`). */
const SITEMAP_FILES = `CASE WHEN cardinality(f.file_ids) > 0 THEN (
    SELECT string_agg(coalesce(s.url, s.upload_name), '|' ORDER BY s.id) FROM sitemap_files s
     WHERE s.id = ANY (f.file_ids))
  ELSE coalesce(sf.url, sf.upload_name) END`;

/** The SELECT list of the CSV, in EXPORT_COLUMNS order. */
const CSV_COLUMNS: Record<(typeof EXPORT_COLUMNS)[number], string> = {
  url: neutralised('f.url'),
  reason: 'f.reason',
  reasons: `array_to_string(coalesce(f.reasons, ARRAY[f.reason]), '|')`,
  sitemap_files: neutralised(SITEMAP_FILES),
  status: 'f.status',
  lastmod: instant('f.lastmod'),
  replace_with: replaceWithSql(neutralised),
  target_status: 't.status',
  decision: 'f.decision',
  decided_by: neutralised('f.decided_by'),
  decided_at: instant('f.decided_at'),
  note: neutralised('f.note'),
};

/**
 * The CSV export of the rows matching the filter, formatted by Postgres (COPY ... TO STDOUT, CSV quoting)
 * and streamed as it is produced. `release` must be called when the stream ends or is abandoned.
 */
export async function copyFindingsCsv(
  auditId: string,
  filter: TFindingFilter,
): Promise<{ stream: NodeJS.ReadableStream; release: () => void }> {
  const client = await pool().connect();
  // COPY takes no parameters: the filter's values are inlined as escaped literals.
  const where = inlineSql(filterSql(auditId, filter), (value) => client.escapeLiteral(value));
  const select = EXPORT_COLUMNS.map((name) => `${CSV_COLUMNS[name]} AS ${name}`).join(',\n           ');
  const sql = `COPY (
    SELECT ${select}
      FROM findings f
      LEFT JOIN sitemap_files sf ON sf.id = f.sitemap_file_id
      LEFT JOIN LATERAL ${targetSql()} t ON true
     WHERE ${where}
     ORDER BY f.id
  ) TO STDOUT WITH (FORMAT csv, HEADER)`;
  const stream = client.query(copyTo(sql));
  let released = false;
  // A COPY stopped half way leaves the connection mid-protocol: such a connection is discarded.
  const release = (broken = true) => {
    if (released) return;
    released = true;
    client.release(broken);
  };
  stream.on('end', () => release(false));
  stream.on('error', () => release(true));
  stream.on('close', () => release(true));
  return { stream, release: () => release(true) };
}
