// Keyset cursors for the findings table: opaque to clients, they carry the sort value and the id of
// the last row of a page so the next page starts right after it, however deep.

import { AppError } from '@/lib/core/errors';
import { INT4_MAX, INT4_MIN, textProblem } from '@/lib/core/text';
import type { FindingSort } from '@/lib/findings/schema';

/** The sortable columns (besides id) and the type of their values. Only lastmod and the numbers may be null. */
export const SORT_COLUMNS = {
  url: { type: 'text', nullable: false },
  reason: { type: 'text', nullable: false },
  decision: { type: 'text', nullable: false },
  lastmod: { type: 'timestamptz', nullable: true },
  status: { type: 'int', nullable: true },
  depth: { type: 'int', nullable: true },
  inlinks: { type: 'int', nullable: true },
} as const;
export type SortColumn = keyof typeof SORT_COLUMNS;

/** The column a sort orders by (null for id) and its direction. */
export function sortColumnOf(sort: FindingSort): { column: SortColumn | null; desc: boolean } {
  const desc = sort.startsWith('-');
  const name = desc ? sort.slice(1) : sort;
  return { column: name === 'id' ? null : (name as SortColumn), desc };
}

export interface Cursor {
  /** The sort column's value of the last row: text (a timestamp as ISO text), a number, or null for a row
   * without one; absent for sort=id. */
  v?: string | number | null;
  id: number;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const INVALID = 'cursor is not valid: pass the nextCursor of the previous page';
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The value fits the column's type as Postgres reads it: an int4, a timestamp in the exact ISO form
 * encodeCursor writes (Date.parse takes "1" or Feb 31, which the cast refuses), or storable text. */
function isValueFor(column: SortColumn | null, v: unknown): boolean {
  if (column === null) return v === undefined;
  const spec = SORT_COLUMNS[column];
  if (v === null) return spec.nullable;
  if (spec.type === 'int')
    return Number.isInteger(v) && (v as number) >= INT4_MIN && (v as number) <= INT4_MAX;
  if (typeof v !== 'string') return false;
  if (spec.type === 'timestamptz') {
    const time = Date.parse(v);
    return !Number.isNaN(time) && new Date(time).toISOString() === v;
  }
  return textProblem(v) === null;
}

/** A cursor from the query string, checked part by part (shape, types, ranges), else a 400 `cursor is not
 * valid`: a forged cursor never reaches SQL as a value the column's cast would refuse. */
export function decodeCursor(text: string | undefined, sort: FindingSort): Cursor | null {
  if (text === undefined) return null;
  let parsed: unknown;
  try {
    if (!BASE64URL.test(text)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('validation_failed', INVALID);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppError('validation_failed', INVALID);
  }
  const c = parsed as Record<string, unknown>;
  const { column } = sortColumnOf(sort);
  const keysOk = Object.keys(c).every((key) => key === 'id' || (key === 'v' && column !== null));
  // Finding ids are int4 from 1.
  const idOk = Number.isInteger(c.id) && (c.id as number) >= 1 && (c.id as number) <= INT4_MAX;
  if (!keysOk || !idOk || 'v' in c !== (column !== null) || !isValueFor(column, c.v)) {
    throw new AppError(
      'validation_failed',
      'cursor is not valid for this sort: pass the nextCursor of the previous page',
    );
  }
  return c as unknown as Cursor;
}
