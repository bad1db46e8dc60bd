// The change feed's filters in the URL (`?tab=changes&type=&since=&q=`), so a filtered feed can be shared:
// read back from the query, and written into it. `since` travels as a day (YYYY-MM-DD) and is asked for as
// that day's start in UTC; a type, a day or a search the feed does not know is dropped, not an error.
import type { ChangeFilters } from '@/lib/sites/hooks';
import { CHANGE_TYPES, type ChangeType } from '@/lib/sites/schema';

export type FeedFilters = ChangeFilters & { sinceDate?: string };

export function feedFilters(params: URLSearchParams): FeedFilters {
  const type = params.get('type');
  const since = params.get('since');
  const q = params.get('q')?.trim();
  const isDate = since !== null && /^\d{4}-\d\d-\d\d$/.test(since) && !Number.isNaN(Date.parse(since));
  return {
    type: CHANGE_TYPES.includes(type as ChangeType) ? (type as ChangeType) : undefined,
    since: isDate ? `${since}T00:00:00Z` : undefined,
    sinceDate: isDate ? since : undefined,
    q: q || undefined,
  };
}

/** The query of the feed with these filters; the tab stays on Changes. */
export function feedQuery(next: { type?: ChangeType; sinceDate?: string; q?: string }): string {
  const params = new URLSearchParams({ tab: 'changes' });
  if (next.type) params.set('type', next.type);
  if (next.sinceDate) params.set('since', next.sinceDate);
  if (next.q) params.set('q', next.q);
  return params.toString();
}
