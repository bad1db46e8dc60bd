// Keyset cursors for the findings table: opaque to clients, they carry the sort value and the id of
// the last row of a page so the next page starts right after it, however deep.
import { AppError } from '@/lib/errors';
import type { FindingSort } from './schema';

export interface Cursor {
  /** The sort column's value of the last row (null for a row with no lastmod); absent for sort=id. */
  v?: string | null;
  id: number;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string | undefined, sort: FindingSort): Cursor | null {
  if (text === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('validation_failed', 'cursor is not valid: pass the nextCursor of the previous page');
  }
  const c = parsed as Partial<Cursor>;
  const valueOk = sort === 'id' ? c.v === undefined : c.v === null || typeof c.v === 'string';
  if (typeof c.id !== 'number' || !Number.isInteger(c.id) || c.id < 0 || !valueOk) {
    throw new AppError(
      'validation_failed',
      'cursor is not valid for this sort: pass the nextCursor of the previous page',
    );
  }
  return c as Cursor;
}
