// Bulk loading with COPY FROM STDIN (text format): Prisma's createMany is orders of magnitude slower.
import 'server-only';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * A COPY stream into `table (columns)` on a dedicated client. write() takes already-encoded lines
 * and honours backpressure; end() resolves when Postgres has committed the rows (in the caller's tx).
 */
export class CopyWriter {
  private stream: ReturnType<typeof copyFrom>;
  private failed: Error | null = null;
  private done: Promise<void>;
  rows = 0;

  /** `freeze`: only for a table created in the caller's transaction (COPY's FREEZE rule). */
  constructor(
    client: pg.ClientBase,
    table: string,
    columns: readonly string[],
    options: { freeze?: boolean } = {},
  ) {
    const cols = columns.map((c) => `"${c}"`).join(', ');
    const freeze = options.freeze ? ' WITH (FREEZE)' : '';
    this.stream = client.query(copyFrom(`COPY "${table}" (${cols}) FROM STDIN${freeze}`));
    this.done = new Promise<void>((resolve, reject) => {
      this.stream.on('finish', resolve);
      this.stream.on('error', (error: Error) => {
        this.failed = error;
        reject(error);
      });
    });
    this.done.catch(() => {});
  }

  /** Writes a chunk of complete lines (each ending in \n). */
  async write(chunk: string, rows: number): Promise<void> {
    if (this.failed) throw this.failed;
    this.rows += rows;
    if (!this.stream.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const onDrain = () => {
          this.stream.off('error', onError);
          resolve();
        };
        const onError = (error: Error) => {
          this.stream.off('drain', onDrain);
          reject(error);
        };
        this.stream.once('drain', onDrain);
        this.stream.once('error', onError);
      });
    }
  }

  async end(): Promise<void> {
    this.stream.end();
    await this.done;
  }
}
