// Words for the site page: how a run started, what a change event or a difference is called. A diff and the
// change feed count removals differently (a URL missing from the newer of two runs; a URL missing from one or
// two complete runs in a row), so their names say which, and the same pair of runs reads without contradiction.
import { reasonLabel } from '@/lib/findings/format';
import type { ChangeType, DiffType, RunTrigger } from '@/lib/sites/schema';

export const TRIGGER_LABELS: Record<RunTrigger, string> = {
  manual: 'New audit',
  rerun: 'Run again',
  schedule: 'Scheduled',
};

export const CHANGE_LABELS: Record<ChangeType, string> = {
  url_added: 'Added',
  url_lastmod_changed: 'Lastmod changed',
  url_removed_pending: 'Removal pending',
  url_removed_confirmed: 'Removed (missed twice)',
  url_moved: 'Moved',
};

export const CHANGE_HINTS: Record<ChangeType, string> = {
  url_added: 'Newly declared in the sitemaps',
  url_lastmod_changed: 'Declared before and now, with another lastmod',
  url_removed_pending: 'Missing from a complete run; removed if the next complete run misses it too',
  url_removed_confirmed: 'Missing from two complete runs in a row',
  url_moved: 'Missing from the run, whose crawl redirects it to a URL the run adds',
};

/** A diff's filter chips: what each counts. */
export const DIFF_LABELS: Record<DiffType, string> = {
  url_added: 'Only in the newer run',
  url_removed: 'Only in the older run',
  url_lastmod_changed: 'Lastmod changed',
  new_problem: 'New problems',
  fixed_problem: 'Fixed problems',
  reason_changed: 'Reason changed',
  moved: 'Moved',
};

/** A diff's row: what this one URL is (the chips' names, in the singular where they are plural). */
export const DIFF_ROW_LABELS: Record<DiffType, string> = {
  ...DIFF_LABELS,
  new_problem: 'New problem',
  fixed_problem: 'Fixed problem',
};

/** A list's name in a sentence ("on the prune list"). */
export const LIST_NAMES: Record<string, string> = {
  prune: 'the prune list',
  add: 'the add list',
  held: 'the held list',
};

/** A list's name in a sentence, also for a list without words of its own ("the gone list"). */
export function listName(list: string): string {
  return LIST_NAMES[list] ?? `the ${list} list`;
}

/** Where a URL is in one run: "the prune list (HTTP 404)"; "no list" for a URL on none. */
export function onListText(list: string | null, reason: string | null): string {
  if (!list) return 'no list';
  const name = listName(list);
  return reason ? `${name} (${reasonLabel(reason)})` : name;
}
