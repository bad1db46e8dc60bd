// The review's sortable column header (components/ui/data-table.tsx draws it). A click (or Enter / Space)
// sorts ascending, then descending, then back to the default order.
import { SortableHeader } from '@/components/ui/data-table';
import type { FindingSort } from '@/lib/findings/schema';
import styles from './review.module.css';
import { nextSort, type SortColumn, sortDirection } from './review-view';

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
  return (
    <SortableHeader
      className={className}
      buttonClassName={styles['sort-button']}
      direction={sortDirection(sort, column)}
      onSort={() => onSort(nextSort(sort, column))}
      testId={`sort-${column}`}
    >
      {label}
    </SortableHeader>
  );
}
