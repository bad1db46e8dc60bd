import { describe, expect, it } from 'vitest';
import type { FindingView } from '@/lib/findings/format';
import { SORTS } from '@/lib/findings/schema';
import { declaredListFor, nextSort, sortDirection, sortOptions } from './review-view';

const view = (patch: Partial<FindingView>): FindingView =>
  ({ list: 'prune', sort: 'id', ...patch }) as FindingView;

describe('sortOptions', () => {
  it('offers every sort on a declared list when the crawl had inlinks', () => {
    expect(sortOptions(view({ list: 'prune' }), true)).toEqual([...SORTS]);
  });
  it('leaves out lastmod on the Add list (crawled pages have none) and inlinks without the column', () => {
    const sorts = sortOptions(view({ list: 'add' }), false);
    expect(sorts.some((sort) => sort.endsWith('lastmod'))).toBe(false);
    expect(sorts.some((sort) => sort.endsWith('inlinks'))).toBe(false);
    expect(sorts).toContain('url');
  });
  it('keeps the sort in use even where the list would not offer it (a shared URL stays readable)', () => {
    expect(sortOptions(view({ list: 'add', sort: '-lastmod' }), false)).toContain('-lastmod');
  });
});

describe('sortDirection and nextSort', () => {
  it('names the direction only for the column sorted by', () => {
    expect(sortDirection('depth', 'depth')).toBe('ascending');
    expect(sortDirection('-depth', 'depth')).toBe('descending');
    expect(sortDirection('-depth', 'url')).toBeUndefined();
  });
  it('cycles a column ascending, descending, then back to the default order', () => {
    expect(nextSort('id', 'status')).toBe('status');
    expect(nextSort('status', 'status')).toBe('-status');
    expect(nextSort('-status', 'status')).toBe('id');
    expect(nextSort('-status', 'url')).toBe('url');
  });
});

describe('declaredListFor', () => {
  const totals = (prune: number, held: number, add = 3) => ({
    prune: { total: prune },
    held: { total: held },
    add: { total: add },
  });
  it('keeps a declared list', () => {
    expect(declaredListFor('held', totals(5, 2) as never)).toBe('held');
    expect(declaredListFor('prune', totals(0, 2) as never)).toBe('prune');
  });
  it('leaves the Add list (its rows are in no file) for the first declared list that has rows', () => {
    expect(declaredListFor('add', totals(5, 2) as never)).toBe('prune');
    expect(declaredListFor('add', totals(0, 2) as never)).toBe('held');
    expect(declaredListFor('add', totals(0, 0) as never)).toBe('prune');
  });
});
