// Keyset pagination of the findings table (pure): the order of a sort and the query segments that continue
// after a cursor. Each segment is a plain index range (row comparison), so a deep page costs what the first
// does. A nullable column's null rows form a block of their own, read last in both directions.

import type { FindingSort } from '@/lib/findings/schema';
import type { FindingRow } from '@/lib/findings/types';
import { type Cursor, SORT_COLUMNS, sortColumnOf } from './cursor';

export interface Segment {
  where: string;
  params: unknown[];
}

export interface Keyset {
  /** ORDER BY over `f` (within a segment: the null block is in id order, its sort value being null). */
  order: string;
  /** The column the page query must read besides id (filter-first pages sort what they read). */
  column: string | null;
  /** The conditions, in page order; the next segment is read only when the previous one runs out. */
  segments: Segment[];
}

/** Parameters of the segments are numbered from `n`. */
export function keyset(sort: FindingSort, cursor: Cursor | null, n: number): Keyset {
  const { column, desc } = sortColumnOf(sort);
  const dir = desc ? 'DESC' : 'ASC';
  const op = desc ? '<' : '>';
  if (column === null) {
    return {
      order: `f.id ${dir}`,
      column: null,
      segments: [cursor ? { where: `f.id ${op} $${n}`, params: [cursor.id] } : { where: 'true', params: [] }],
    };
  }
  const spec = SORT_COLUMNS[column];
  const col = `f.${column}`;
  // The order the column's index gives in either direction: no NULLS clause, the null block being apart.
  const order = `${col} ${dir}, f.id ${dir}`;
  const notNull = spec.nullable ? `${col} IS NOT NULL` : 'true';
  const hasValue = cursor !== null && cursor.v !== null && cursor.v !== undefined;
  const valued: Segment = hasValue
    ? {
        where: `${notNull} AND (${col}, f.id) ${op} ($${n}::${spec.type}, $${n + 1})`,
        params: [cursor.v, cursor.id],
      }
    : { where: notNull, params: [] };
  if (!spec.nullable) return { order, column, segments: [valued] };
  if (cursor !== null && !hasValue) {
    return {
      order,
      column,
      segments: [{ where: `${col} IS NULL AND f.id ${op} $${n}`, params: [cursor.id] }],
    };
  }
  return { order, column, segments: [valued, { where: `${col} IS NULL`, params: [] }] };
}

/** The cursor that continues after `row` in this sort. */
export function cursorAfter(sort: FindingSort, row: FindingRow): Cursor {
  const { column } = sortColumnOf(sort);
  if (column === null) return { id: row.id };
  const value = row[column];
  return { v: value instanceof Date ? value.toISOString() : value, id: row.id };
}
