// The exports' reads, streamed so that memory does not grow with the list: JSONL rows in batches from a
// server-side cursor, and the CSV formatted by Postgres itself (COPY ... TO STDOUT).
import 'server-only';
import { to as copyTo } from 'pg-copy-streams';
import { pool } from '@/lib/db/client';
import { crawlTimeOf, FINDING_COLUMNS, FINDING_FROM } from '@/lib/findings/data';
import { toFindingDto } from '@/lib/findings/dto';
import { evidenceDetailSql } from '@/lib/findings/evidence';
import type { FindingDto, FindingList } from '@/lib/findings/schema';
import type { FindingRow } from '@/lib/findings/types';

/**
 * The rows of one list (optionally one decision) in id order, a batch at a time, from a cursor. Their
 * evidence has no crawlTime: the JSONL lines have never carried it (the CSV's detail does).
 */
export async function* streamFindings(
  auditId: string,
  list: FindingList,
  decision: FindingDto['decision'] | 'all',
  batchSize = 5000,
): AsyncGenerator<FindingDto[]> {
  const client = await pool().connect();
  try {
    await client.query('BEGIN READ ONLY');
    const params: unknown[] = [auditId, list];
    const decisionSql = decision === 'all' ? '' : ` AND f.decision = $${params.push(decision)}`;
    await client.query(
      `DECLARE findings_export NO SCROLL CURSOR FOR
       SELECT ${FINDING_COLUMNS} FROM ${FINDING_FROM} WHERE f.audit_id = $1 AND f.list = $2${decisionSql} ORDER BY f.id`,
      params,
    );
    for (;;) {
      const { rows } = await client.query<FindingRow>(`FETCH ${batchSize} FROM findings_export`);
      if (rows.length === 0) break;
      yield rows.map((row) => toFindingDto(row, null));
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A cell text a spreadsheet would not run as a formula: a leading = + - @ TAB or CR gets an apostrophe. */
function neutralised(column: string): string {
  return `CASE WHEN ${column} ~ '^[=+@\\t\\r-]' THEN '''' || ${column} ELSE ${column} END`;
}

/**
 * The CSV export of one list, formatted by Postgres (COPY ... TO STDOUT, CSV quoting) and streamed as it
 * is produced. `release` must be called when the stream ends or is abandoned.
 */
export async function copyFindingsCsv(
  auditId: string,
  list: FindingList,
  decision: FindingDto['decision'] | 'all',
): Promise<{ stream: NodeJS.ReadableStream; release: () => void }> {
  const crawlTime = await crawlTimeOf(auditId);
  const client = await pool().connect();
  // COPY takes no parameters: the values are inlined as escaped literals.
  const literal = (value: string) => client.escapeLiteral(value);
  const decisionSql = decision === 'all' ? '' : ` AND f.decision = ${literal(decision)}`;
  const detail = evidenceDetailSql(crawlTime === null ? 'NULL::text' : literal(crawlTime));
  const sql = `COPY (
    SELECT ${neutralised('f.url')} AS url, f.reason, ${neutralised(detail)} AS detail,
           f.decision, ${neutralised('f.decided_by')} AS decided_by,
           to_char(f.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS decided_at,
           ${neutralised('f.note')} AS note
      FROM findings f
     WHERE f.audit_id = ${literal(auditId)}::uuid AND f.list = ${literal(list)}${decisionSql}
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
