// What a feature hands the review to add a column of evidence to it: how the column filters, what it reads
// for a page of rows, and what each row's DTO carries. The review treats every registered column alike
// (index.ts): the list, counts, decisions by filter, spot-check selection and export all filter through
// `where`, and pages and details read through `load`. Pure types.
import type { FindingDetailDto, FindingDto, FindingPage, TFindingFilter } from '@/lib/findings/schema';
import type { FindingRow } from '@/lib/findings/types';

/** The DTO fields columns fill (each a field of FindingDto and FindingDetailDto). */
export type ColumnField = 'spotCheck' | 'gsc';
export type ColumnValues = Pick<FindingDto, ColumnField>;
export type ColumnDetails = Pick<FindingDetailDto, ColumnField>;

export interface ReviewColumn<F extends ColumnField, Row> {
  /** The DTO field the column fills. */
  field: F;
  /** Its flag in FindingPage.columns: whether pages show it (they do once the audit has any of it). */
  flag: keyof FindingPage['columns'];
  /** Its name in words (docs, logs). */
  label: string;
  /** The filter's condition on the findings alias `f`, with the audit as the SQL expression `audit`, or
   * null when the filter does not use the column. Its values come from closed lists (the filter's schema)
   * and are written into the SQL; the audit is the only parameter, so counts and COPY can inline it. */
  where(filter: TFindingFilter, audit: string): string | null;
  /** Whether the filter keeps few rows through the column (the list then reads matching rows first). */
  narrows(filter: TFindingFilter): boolean;
  /** Whether the audit has any of the column's evidence (EXISTS over its runs or imports, never findings). */
  present(auditId: string): Promise<boolean>;
  /** The column's evidence for each of `ids` that has some. */
  load(auditId: string, ids: readonly number[]): Promise<Map<number, Row>>;
  /** The row's value in a list's DTO. */
  summary(row: Row | undefined, finding: FindingRow): FindingDto[F];
  /** The same with everything the detail shows. */
  detail(row: Row | undefined, finding: FindingRow): FindingDetailDto[F];
}
