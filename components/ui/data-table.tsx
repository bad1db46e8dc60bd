// A data table from a list of columns: caption, header cells (sortable ones as a button carrying aria-sort),
// one row per item with each cell named by data-label (a look's phone cards print it before the value), and
// a row saying there is nothing when the list is empty. The look is the caller's class (.table, .spot-items).
import type { ReactNode, TdHTMLAttributes } from 'react';
import styles from './data-table.module.css';

export type SortDirection = 'ascending' | 'descending';

export type DataColumn<Row> = {
  /** Unique among the columns. */
  id: string;
  header: ReactNode;
  /** The cell's name on a phone card (data-label); the header when it is a string. */
  label?: string;
  /** Right-aligned figures (the `num` class on the header and the cells). */
  isNumeric?: boolean;
  headerClassName?: string;
  cellClassName?: string;
  cell: (row: Row, index: number) => ReactNode;
  /** More attributes of a cell (a title, a test id). */
  cellProps?: (row: Row) => TdHTMLAttributes<HTMLTableCellElement> & { 'data-testid'?: string };
  /** A sortable column: its direction while the table is sorted by it, and what a click asks for. */
  sort?: { direction?: SortDirection; onSort: () => void; testId?: string };
};

const join = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/** A header cell whose button sorts by the column: ▲ ascending, ▼ descending, ↕ not sorted by it. */
export function SortableHeader({
  children,
  direction,
  onSort,
  className,
  buttonClassName,
  testId,
}: {
  children: ReactNode;
  direction?: SortDirection;
  onSort: () => void;
  className?: string;
  /** A class of the caller's own for the button (a table's denser header). */
  buttonClassName?: string;
  testId?: string;
}) {
  return (
    <th scope="col" className={className} aria-sort={direction}>
      <button
        type="button"
        className={join(styles.sortButton, buttonClassName)}
        data-testid={testId}
        onClick={onSort}
      >
        {children}
        <span className={styles.sortIcon} aria-hidden="true" data-direction={direction ?? 'none'}>
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  caption,
  empty,
  className,
  wrapClassName,
  testId,
}: {
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string | number;
  /** More attributes of a row (a test id, data-*). */
  rowProps?: (row: Row) => Record<`data-${string}`, string | number | boolean | undefined>;
  /** What the table is; read by screen readers, hidden unless `caption.visible`. */
  caption?: { text: ReactNode; visible?: boolean };
  /** Shown in one row across the table when there are no rows. */
  empty?: ReactNode;
  className?: string;
  /** The box the table scrolls in sideways when it is wider than the page; without it, no box. */
  wrapClassName?: string;
  testId?: string;
}) {
  const table = (
    <table className={className} data-testid={testId}>
      {caption ? (
        <caption className={caption.visible ? undefined : 'visually-hidden'}>{caption.text}</caption>
      ) : null}
      <thead>
        <tr>
          {columns.map((column) => {
            const className = join(column.isNumeric && 'num', column.headerClassName);
            return column.sort ? (
              <SortableHeader
                key={column.id}
                className={className}
                direction={column.sort.direction}
                onSort={column.sort.onSort}
                testId={column.sort.testId}
              >
                {column.header}
              </SortableHeader>
            ) : (
              <th key={column.id} scope="col" className={className}>
                {column.header}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty !== undefined ? (
          <tr>
            <td colSpan={columns.length} className={styles.empty}>
              {empty}
            </td>
          </tr>
        ) : null}
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} {...rowProps?.(row)}>
            {columns.map((column) => (
              <td
                key={column.id}
                data-label={column.label ?? (typeof column.header === 'string' ? column.header : undefined)}
                className={join(column.isNumeric && 'num', column.cellClassName)}
                {...column.cellProps?.(row)}
              >
                {column.cell(row, index)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return wrapClassName ? <div className={wrapClassName}>{table}</div> : table;
}
