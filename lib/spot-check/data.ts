// Reads of a spot-check: the rows of a seeded, stratified sample of an audit's findings (issue #12).
import 'server-only';
import { pool } from '@/lib/db/client';
import { filterSql } from '@/lib/findings/filter-sql';
import type { TFindingFilter } from '@/lib/findings/schema';
import { allocateSample } from './sample';

export interface SampledFinding {
  id: number;
  reason: string;
}

/**
 * A sample of `n` findings matching `filter` (its list, and any other filter), stratified by reason
 * (allocateSample), in id order. Within a reason rows are ranked by md5(seed:id): the same seed on the same
 * audit gives the same rows, another seed another sample, and no row is favoured by where it sits. One
 * read-only repeatable-read transaction, so the counts and the rows are of the same snapshot even while
 * decisions are being recorded (a filter may name a decision).
 */
export async function sampleFindings(
  auditId: string,
  filter: TFindingFilter,
  n: number,
  seed: number,
): Promise<SampledFinding[]> {
  const f = filterSql(auditId, filter);
  const client = await pool().connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const counted = await client.query<{ reason: string; n: number }>(
      `SELECT f.reason, count(*)::int AS n FROM findings f WHERE ${f.sql} GROUP BY f.reason`,
      f.params,
    );
    const quotas = Object.entries(
      allocateSample(Object.fromEntries(counted.rows.map((r) => [r.reason, r.n])), n),
    );
    if (quotas.length === 0) {
      await client.query('COMMIT');
      return [];
    }
    const next = f.params.length + 1;
    // Every matching row is hashed and ranked: for a million rows that is one sort (about a second), paid
    // once per run; a TABLESAMPLE would be cheaper but neither repeatable per seed nor stratified.
    const picked = await client.query<SampledFinding>(
      `SELECT x.id, x.reason
         FROM (SELECT f.id, f.reason,
                      row_number() OVER (PARTITION BY f.reason ORDER BY md5($${next}::text || ':' || f.id), f.id) AS rank
                 FROM findings f WHERE ${f.sql}) x
         JOIN unnest($${next + 1}::text[], $${next + 2}::int[]) AS q(reason, quota) ON q.reason = x.reason
        WHERE x.rank <= q.quota
        ORDER BY x.id`,
      [...f.params, String(seed), quotas.map(([reason]) => reason), quotas.map(([, quota]) => quota)],
    );
    await client.query('COMMIT');
    return picked.rows;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
