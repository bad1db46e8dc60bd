// Reading a large result a batch at a time: a server-side cursor in a read-only transaction on a client of its
// own, so memory follows the batch, not the result. One sorted cursor beats keyset pages where the rows carry
// no index to page on (each page would sort or scan again).
import 'server-only';
import type pg from 'pg';
import { pool } from './pool';

/** The rows of `sql` (with `params`), `batchSize` at a time; the cursor closes when the loop ends or throws. */
export async function* streamRows<Row extends pg.QueryResultRow>(
  sql: string,
  params: unknown[],
  batchSize: number,
): AsyncGenerator<Row[]> {
  const client = await pool().connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE batch_rows NO SCROLL CURSOR FOR ${sql}`, params);
    for (;;) {
      const { rows } = await client.query<Row>(`FETCH ${Math.max(1, Math.floor(batchSize))} FROM batch_rows`);
      if (rows.length === 0) break;
      yield rows;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
