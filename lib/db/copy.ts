// Bulk loading with COPY FROM STDIN (text format): Prisma's createMany is orders of magnitude slower.
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const SPECIAL = /[\\\n\r\t\0]/;

/** Escapes one value for COPY's text format; null becomes \N. */
export function copyValue(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '\\N' : value.toISOString();
  // Only backslash, newline, carriage return and tab are special in the text format (NUL is invalid).
  if (!SPECIAL.test(value)) return value;
  return value
    .replace(/\0/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
}

/**
 * A COPY stream into `table (columns)` on a dedicated client. write() takes already-encoded lines
 * and honours backpressure; end() resolves when Postgres has committed the rows (in the caller's tx).
 */
export class CopyWriter {
  private stream: ReturnType<typeof copyFrom>;
  private failed: Error | null = null;
  private done: Promise<void>;
  rows = 0;

  constructor(client: pg.ClientBase, table: string, columns: readonly string[]) {
    const cols = columns.map((c) => `"${c}"`).join(', ');
    this.stream = client.query(copyFrom(`COPY "${table}" (${cols}) FROM STDIN`));
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
