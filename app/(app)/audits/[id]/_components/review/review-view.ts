// The review's view logic, pure: which sorts a list offers, what a click on a column header asks for, and
// which list a filter set from outside the review (a file, a signal) shows.
import type { SortDirection } from '@/components/ui/data-table';
import type { FindingView } from '@/lib/findings/format';
import { type FindingList, type FindingSort, type FindingsOverview, SORTS } from '@/lib/findings/schema';

/** Sorts that mean something for the list: add rows have no lastmod; inlinks only when the crawl had them. */
export function sortOptions(view: FindingView, hasInlinks: boolean): FindingSort[] {
  return SORTS.filter(
    (sort) =>
      sort === view.sort ||
      ((view.list !== 'add' || !sort.endsWith('lastmod')) && (hasInlinks || !sort.endsWith('inlinks'))),
  );
}

export type SortColumn = 'url' | 'reason' | 'status' | 'depth' | 'inlinks' | 'lastmod' | 'decision';

/** The column's direction while the review is sorted by it. */
export function sortDirection(sort: FindingSort, column: SortColumn): SortDirection | undefined {
  return sort === column ? 'ascending' : sort === `-${column}` ? 'descending' : undefined;
}

/** The sort a click on the column's header asks for. */
export function nextSort(sort: FindingSort, column: SortColumn): FindingSort {
  if (sort === column) return `-${column}`;
  if (sort === `-${column}`) return 'id';
  return column;
}

/** The list a file or signal filter set from outside the review shows: those filters only select declared
 * rows, so from the Add list it is the first declared list that has rows. */
export function declaredListFor(
  current: FindingList,
  findings: Pick<FindingsOverview, FindingList>,
): FindingList {
  if (current !== 'add') return current;
  return findings.prune.total === 0 && findings.held.total > 0 ? 'held' : 'prune';
}
