// A sortable column header: a button in the <th>, which carries aria-sort while the column sorts. A click
// (or Enter / Space) sorts ascending, then descending, then back to the default order.
import type { FindingSort } from '@/lib/findings/schema';
import styles from './review.module.css';

export type SortColumn = 'url' | 'reason' | 'status' | 'depth' | 'inlinks' | 'lastmod' | 'decision';

/** The sort a click on the column's header asks for. */
export function nextSort(sort: FindingSort, column: SortColumn): FindingSort {
  if (sort === column) return `-${column}`;
  if (sort === `-${column}`) return 'id';
  return column;
}

export function SortHeader({
  column,
  label,
  sort,
  onSort,
  className,
}: {
  column: SortColumn;
  label: string;
  sort: FindingSort;
  onSort: (sort: FindingSort) => void;
  className?: string;
}) {
  const direction = sort === column ? 'ascending' : sort === `-${column}` ? 'descending' : undefined;
  return (
    <th scope="col" className={className} aria-sort={direction}>
      <button
        type="button"
        className={styles['sort-button']}
        data-testid={`sort-${column}`}
        onClick={() => onSort(nextSort(sort, column))}
      >
        {label}
        <span className={styles['sort-button__icon']} aria-hidden="true" data-direction={direction ?? 'none'}>
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}
