import { describe, expect, it } from 'vitest';
import {
  type FindingsByFileItem,
  OTHER_COLOUR,
  OTHER_KEY,
  prepareReasonsPerFile,
  prepareReasonsPerList,
  rankReasons,
  reasonColour,
} from './chart-data';
import type { FindingsSummary } from './schema';

const summary: FindingsSummary = {
  prune: {
    total: 1_060,
    byReason: { http_404: 300, unreached_by_crawl: 700, redirects: 50, noindex: 10, non_canonical: 0 },
  },
  add: { total: 25, byReason: { reachable_not_declared: 25 } },
  held: { total: 0, byReason: {} },
};

describe('reasonColour', () => {
  it('gives every known reason its own colour', () => {
    const reasons = [
      'unreached_by_crawl',
      'url_variant',
      'blocked_by_robots',
      'no_response',
      'http_404',
      'redirects',
      'non_canonical',
      'noindex',
      'newer_than_crawl',
      'section_not_crawled',
      'reachable_not_declared',
    ];
    const colours = reasons.map(reasonColour);
    expect(new Set(colours).size).toBe(reasons.length);
    expect(colours).not.toContain(OTHER_COLOUR);
  });

  it('tells common HTTP statuses apart and keeps 5xx out of the 4xx palette', () => {
    expect(reasonColour('http_404')).not.toBe(reasonColour('http_410'));
    const fourXx = new Set(['http_400', 'http_401', 'http_403', 'http_404', 'http_410'].map(reasonColour));
    expect(fourXx.has(reasonColour('http_500'))).toBe(false);
    expect(fourXx.has(reasonColour('http_503'))).toBe(false);
  });

  it('uses grey for the other bucket and a palette colour for unknown reasons', () => {
    expect(reasonColour(null)).toBe(OTHER_COLOUR);
    expect(reasonColour(OTHER_KEY)).toBe(OTHER_COLOUR);
    expect(reasonColour('brand_new_rule')).toMatch(/^#[0-9a-f]{6}$/);
    expect(reasonColour('brand_new_rule')).not.toBe(OTHER_COLOUR);
  });
});

describe('rankReasons', () => {
  it('keeps positive counts, largest first, ties in the documented order', () => {
    expect(rankReasons({ noindex: 1, http_410: 1, redirects: 1, unreached_by_crawl: 1, x: 0, y: 2 })).toEqual(
      [
        ['y', 2],
        ['unreached_by_crawl', 1],
        ['http_410', 1],
        ['redirects', 1],
        ['noindex', 1],
      ],
    );
    expect(rankReasons(undefined)).toEqual([]);
  });
});

describe('prepareReasonsPerList', () => {
  it('draws one bar per non-zero reason, lists in order, largest first', () => {
    const data = prepareReasonsPerList(summary);
    expect(data.bars.map((bar) => bar.key)).toEqual([
      'prune:unreached_by_crawl',
      'prune:http_404',
      'prune:redirects',
      'prune:noindex',
      'add:reachable_not_declared',
    ]);
    expect(data.bars[1]).toMatchObject({
      list: 'prune',
      reason: 'http_404',
      label: 'HTTP 404',
      axisLabel: 'Prune · HTTP 404',
      count: 300,
      colour: reasonColour('http_404'),
    });
    expect(data.emptyLists).toEqual(['held']);
    expect(data.foldedReasons).toBe(0);
    expect(data.isEmpty).toBe(false);
  });

  it('folds the smallest reasons into an explicit other bar that keeps the total', () => {
    const data = prepareReasonsPerList(summary, { top: 3 });
    const prune = data.bars.filter((bar) => bar.list === 'prune');
    expect(prune.map((bar) => bar.reason)).toEqual(['unreached_by_crawl', 'http_404', null]);
    const other = prune[2];
    expect(other).toMatchObject({
      key: `prune:${OTHER_KEY}`,
      label: 'Other reasons (2)',
      count: 60,
      colour: OTHER_COLOUR,
    });
    expect(prune.reduce((sum, bar) => sum + bar.count, 0)).toBe(1_060);
    expect(data.foldedReasons).toBe(2);
  });

  it('does not fold a single reason into "other"', () => {
    const data = prepareReasonsPerList(summary, { top: 4 });
    expect(data.bars.filter((bar) => bar.list === 'prune').map((bar) => bar.reason)).toEqual([
      'unreached_by_crawl',
      'http_404',
      'redirects',
      'noindex',
    ]);
  });

  it('breaks ties by the documented reason order', () => {
    const data = prepareReasonsPerList({
      prune: { total: 20, byReason: { noindex: 10, unreached_by_crawl: 10 } },
      add: { total: 0, byReason: {} },
      held: { total: 0, byReason: {} },
    });
    expect(data.bars.map((bar) => bar.reason)).toEqual(['unreached_by_crawl', 'noindex']);
  });

  it('handles a missing summary, missing lists and bad counts', () => {
    expect(prepareReasonsPerList(null)).toEqual({
      bars: [],
      emptyLists: ['prune', 'add', 'held'],
      foldedReasons: 0,
      isEmpty: true,
    });
    const partial = { prune: { total: 1, byReason: { noindex: Number.NaN, redirects: -3, http_410: 1 } } };
    const data = prepareReasonsPerList(partial as unknown as FindingsSummary);
    expect(data.bars.map((bar) => bar.key)).toEqual(['prune:http_410']);
    expect(data.emptyLists).toEqual(['add', 'held']);
  });
});

describe('prepareReasonsPerFile', () => {
  const file = (
    fileId: number | null,
    byReason: Record<string, number>,
    name?: Partial<FindingsByFileItem>,
  ) => ({
    fileId,
    url: fileId === null ? null : `https://example.com/sitemaps/file-${fileId}.xml`,
    uploadName: null,
    byReason,
    ...name,
  });

  it('stacks reasons per file, largest file first, with labels from the file name', () => {
    const data = prepareReasonsPerFile([
      file(1, { http_404: 5 }),
      file(2, { unreached_by_crawl: 20, http_404: 10 }, { uploadName: 'news.xml' }),
    ]);
    expect(data.rows.map((row) => [row.key, row.label, row.total])).toEqual([
      ['file:2', 'news.xml', 30],
      ['file:1', 'file-1.xml', 5],
    ]);
    expect(data.rows[1]?.title).toBe('https://example.com/sitemaps/file-1.xml');
    expect(data.rows[0]?.values).toEqual({ unreached_by_crawl: 20, http_404: 10 });
    expect(data.series.map((s) => s.key)).toEqual(['unreached_by_crawl', 'http_404']);
    expect(data.series[1]).toEqual({ key: 'http_404', label: 'HTTP 404', colour: reasonColour('http_404') });
    expect(data.foldedFiles).toBe(0);
  });

  it('folds files beyond the top into "Other files" together with the server bucket', () => {
    const items = [
      file(1, { http_404: 50 }),
      file(2, { http_404: 40 }),
      file(3, { redirects: 30 }),
      file(4, { redirects: 20 }),
      file(null, { noindex: 7 }, { uploadName: 'other files' }),
    ];
    const data = prepareReasonsPerFile(items, { top: 3 });
    expect(data.rows.map((row) => row.label)).toEqual(['file-1.xml', 'file-2.xml', 'Other files']);
    const other = data.rows[2];
    expect(other).toMatchObject({ key: OTHER_KEY, fileId: null, total: 57 });
    expect(other?.values).toEqual({ redirects: 50, noindex: 7 });
    expect(data.foldedFiles).toBe(3);
    const sum = (rows: typeof data.rows) => rows.reduce((total, row) => total + row.total, 0);
    expect(sum(data.rows)).toBe(147);
  });

  it('never draws more than `top` rows, counting the "Other files" row', () => {
    const items = [1, 2, 3].map((id) => file(id, { http_404: 10 * id }));
    items.push(file(null, { http_404: 1 }, { uploadName: 'other files' }));
    const data = prepareReasonsPerFile(items, { top: 3 });
    expect(data.rows.map((row) => row.key)).toEqual(['file:3', 'file:2', OTHER_KEY]);
    expect(data.rows[2]?.total).toBe(11);
    expect(prepareReasonsPerFile(items.slice(0, 3), { top: 3 }).rows).toHaveLength(3);
  });

  it('keeps the top reasons as series and sums the rest as "Other reasons"', () => {
    const data = prepareReasonsPerFile(
      [
        file(1, { http_404: 9, redirects: 5, noindex: 2, http_410: 1 }),
        file(2, { redirects: 5, url_variant: 3 }),
      ],
      { topReasons: 3 },
    );
    expect(data.series.map((s) => s.key)).toEqual(['redirects', 'http_404', OTHER_KEY]);
    expect(data.series[2]).toMatchObject({ label: 'Other reasons (3)', colour: OTHER_COLOUR });
    expect(data.rows.find((row) => row.fileId === 1)?.values).toEqual({
      http_404: 9,
      redirects: 5,
      [OTHER_KEY]: 3,
    });
    expect(data.rows.find((row) => row.fileId === 2)?.values).toEqual({ redirects: 5, [OTHER_KEY]: 3 });
  });

  it('handles null input, empty files and files without a name', () => {
    expect(prepareReasonsPerFile(undefined)).toEqual({ rows: [], series: [], foldedFiles: 0, isEmpty: true });
    const data = prepareReasonsPerFile([
      file(1, {}),
      file(5, { noindex: 2 }, { url: null }),
      file(6, { noindex: 1 }, { url: 'not a url' }),
    ]);
    expect(data.rows.map((row) => row.label)).toEqual(['File #5', 'not a url']);
    expect(data.rows.every((row) => row.total > 0)).toBe(true);
  });

  it('shows only the server bucket when no file is named', () => {
    const data = prepareReasonsPerFile([file(null, { http_404: 4 }, { uploadName: 'other files' })]);
    expect(data.rows).toHaveLength(1);
    expect(data.rows[0]).toMatchObject({ label: 'Other files', total: 4 });
    expect(data.foldedFiles).toBe(1);
  });
});
