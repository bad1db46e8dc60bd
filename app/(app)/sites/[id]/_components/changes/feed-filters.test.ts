import { describe, expect, it } from 'vitest';
import { feedFilters, feedQuery } from './feed-filters';

const read = (query: string) => feedFilters(new URLSearchParams(query));

describe('feedFilters', () => {
  it('reads the type, the day (asked for from its start in UTC) and the trimmed search', () => {
    expect(read('tab=changes&type=url_moved&since=2026-11-02&q=%20/blog/%20')).toEqual({
      type: 'url_moved',
      since: '2026-11-02T00:00:00Z',
      sinceDate: '2026-11-02',
      q: '/blog/',
    });
  });

  it('drops a type, a day or a search it does not know instead of failing', () => {
    expect(read('type=url_deleted&since=2026-13-01&q=%20%20')).toEqual({
      type: undefined,
      since: undefined,
      sinceDate: undefined,
      q: undefined,
    });
    expect(read('since=yesterday').since).toBeUndefined();
    expect(read('since=2026-11-02T10:00:00Z').since).toBeUndefined();
  });

  it('reads nothing from an empty query', () => {
    expect(read('')).toEqual({ type: undefined, since: undefined, sinceDate: undefined, q: undefined });
  });
});

describe('feedQuery', () => {
  it('keeps the Changes tab and writes only the filters that are set', () => {
    expect(feedQuery({})).toBe('tab=changes');
    expect(feedQuery({ type: 'url_added', q: 'a b' })).toBe('tab=changes&type=url_added&q=a+b');
  });

  it('is read back as the same filters', () => {
    const next = { type: 'url_lastmod_changed', sinceDate: '2026-10-31', q: '/shop?x=1&y=2' } as const;
    expect(read(feedQuery(next))).toEqual({ ...next, since: '2026-10-31T00:00:00Z' });
  });
});
