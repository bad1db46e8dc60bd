// The review's columns of evidence. A feature adds one by writing its ReviewColumn (types.ts) and listing
// it here; the list, counts, decisions, selections and exports pick it up without other changes.
import 'server-only';
import type { TFindingFilter } from '@/lib/findings/schema';
import type { FindingRow } from '@/lib/findings/types';
import { gscColumn } from './gsc/data';
import { liveColumn } from './live/data';
import type { ColumnDetails, ColumnField, ColumnValues } from './types';

export const REVIEW_COLUMNS = [liveColumn, gscColumn] as const;

/** The columns' conditions for the filter (the audit as the SQL expression `audit`). */
export function columnConditions(filter: TFindingFilter, audit: string): string[] {
  return REVIEW_COLUMNS.map((column) => column.where(filter, audit)).filter((sql) => sql !== null);
}

/** Whether some column keeps few rows under the filter. */
export function columnsNarrow(filter: TFindingFilter): boolean {
  return REVIEW_COLUMNS.some((column) => column.narrows(filter));
}

/** FindingPage.columns: which columns the audit has evidence for. */
export async function presentColumns(
  auditId: string,
): Promise<Record<(typeof REVIEW_COLUMNS)[number]['flag'], boolean>> {
  const present = await Promise.all(REVIEW_COLUMNS.map((column) => column.present(auditId)));
  return Object.fromEntries(REVIEW_COLUMNS.map((column, i) => [column.flag, present[i]])) as Record<
    (typeof REVIEW_COLUMNS)[number]['flag'],
    boolean
  >;
}

/** A column as the readers below use it: its row type is its own business. */
interface ColumnReader {
  field: ColumnField;
  load(auditId: string, ids: readonly number[]): Promise<Map<number, unknown>>;
  summary(row: unknown, finding: FindingRow): unknown;
  detail(row: unknown, finding: FindingRow): unknown;
}
const READERS = REVIEW_COLUMNS as readonly unknown[] as readonly ColumnReader[];

/** Every column's evidence for the rows of `ids`, read side by side; then each row's values. */
export async function readColumns(auditId: string, ids: readonly number[]) {
  const loaded = await Promise.all(READERS.map((column) => column.load(auditId, ids)));
  const valuesOf =
    <T>(pick: 'summary' | 'detail') =>
    (finding: FindingRow): T =>
      Object.fromEntries(
        READERS.map((column, i) => [column.field, column[pick](loaded[i]?.get(finding.id), finding)]),
      ) as T;
  return { values: valuesOf<ColumnValues>('summary'), details: valuesOf<ColumnDetails>('detail') };
}
