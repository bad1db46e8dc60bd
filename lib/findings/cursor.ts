// Keyset cursors for the findings table: opaque to clients, they carry the sort value and the id of
// the last row of a page so the next page starts right after it, however deep.
import { AppError } from '@/lib/errors';
import type { FindingSort } from './schema';

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

function isValueFor(column: SortColumn | null, v: unknown): boolean {
  if (column === null) return v === undefined;
  const spec = SORT_COLUMNS[column];
  if (v === null) return spec.nullable;
  if (spec.type === 'int') return typeof v === 'number' && Number.isSafeInteger(v);
  if (spec.type === 'timestamptz') return typeof v === 'string' && !Number.isNaN(Date.parse(v));
  return typeof v === 'string';
}

export function decodeCursor(text: string | undefined, sort: FindingSort): Cursor | null {
  if (text === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('validation_failed', 'cursor is not valid: pass the nextCursor of the previous page');
  }
  const c = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<Cursor>;
  const { column } = sortColumnOf(sort);
  if (
    typeof c.id !== 'number' ||
    !Number.isInteger(c.id) ||
    c.id < 0 ||
    !isValueFor(column, 'v' in c ? c.v : undefined)
  ) {
    throw new AppError(
      'validation_failed',
      'cursor is not valid for this sort: pass the nextCursor of the previous page',
    );
  }
  return c as Cursor;
}
