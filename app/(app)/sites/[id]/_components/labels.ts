// Words for the site page: how a run started, what a change event or a difference is called.
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
  url_removed_confirmed: 'Removed (confirmed)',
};

export const CHANGE_HINTS: Record<ChangeType, string> = {
  url_added: 'Newly declared in the sitemaps',
  url_lastmod_changed: 'Declared before and now, with another lastmod',
  url_removed_pending: 'Missing from a complete run; removed if the next complete run misses it too',
  url_removed_confirmed: 'Missing from two complete runs in a row',
};

export const DIFF_LABELS: Record<DiffType, string> = {
  url_added: 'Added',
  url_removed: 'Removed',
  url_lastmod_changed: 'Lastmod changed',
  new_problem: 'New problems',
  fixed_problem: 'Fixed problems',
  reason_changed: 'Reason changed',
  moved: 'Moved',
};
