import { describe, expect, it } from 'vitest';
import type { FindingList } from '@/lib/findings/schema';
import { type CheckedItem, STALE_SHARE, staleCrawlWarning, summarize, VERDICTS, wilson } from './stats';
import type { Verdict } from './types';

describe('wilson', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1], // at x = n the lower bound is n / (n + z²)
    [5, 10, 0.2366, 0.7634],
  ])('%i of %i → [%f, %f]', (x, n, low, high) => {
    const p = wilson(x, n);
    expect(p.value).toBeCloseTo(x / n, 10);
    expect(p.low).toBeCloseTo(low, 4);
    expect(p.high).toBeCloseTo(high, 4);
    expect(p.n).toBe(n);
  });

  it('has no value when nothing was measured', () => {
    expect(wilson(0, 0)).toEqual({ value: null, low: null, high: null, n: 0 });
  });
});

function item(
  verdict: Verdict,
  chainStatuses: number[],
  reason = 'http_404',
  list: FindingList = 'prune',
): CheckedItem {
  return {
    list,
    reason,
    verdict,
    chain: chainStatuses.map((status) => ({ status })),
    finalStatus: chainStatuses.at(-1) ?? null,
  };
}

describe('summarize', () => {
  const items: CheckedItem[] = [
    item('confirmed', [404]),
    item('confirmed', [410]),
    item('confirmed', [301, 404], 'redirects'), // rot after a redirect, and a redirect
    item('changed', [302, 200], 'noindex'), // a redirect, not rot
    item('contradicted', [200]),
    item('dead', [404], 'unreached_by_crawl'),
    item('orphan_live', [200], 'unreached_by_crawl'),
    item('orphan_live', [200], 'section_not_crawled', 'held'),
    item('recovered', [200], 'server_error', 'held'),
    item('confirmed', [503], 'server_error', 'held'), // 5xx is not rot
    item('confirmed', [200], 'reachable_not_declared', 'add'), // add rows are not declared URLs
    item('changed', [404], 'reachable_not_declared', 'add'),
    item('error', [], 'unreached_by_crawl'), // counted, never measured
  ];
  const summary = summarize(items);

  it('counts every verdict, zero included', () => {
    expect(Object.keys(summary.byVerdict).sort()).toEqual([...VERDICTS].sort());
    expect(summary.byVerdict).toMatchObject({ confirmed: 5, changed: 2, orphan_live: 2, error: 1, dead: 1 });
    expect(Object.values(summary.byVerdict).reduce((a, b) => a + b, 0)).toBe(items.length);
  });

  it('takes rot and redirects over the declared URLs that answered', () => {
    // Declared and answered: 10 rows (not the two add rows, not the error).
    expect(summary.rotRate).toEqual(wilson(4, 10));
    expect(summary.redirectRatio).toEqual(wilson(2, 10));
  });

  it('takes the orphan share over the URLs the crawl never fetched', () => {
    expect(summary.orphanShare).toEqual(wilson(2, 3));
  });

  it('warns when more than a fifth of the answers contradict the crawl', () => {
    // contradicted + recovered = 2 of 12 answered: no warning.
    expect(summary.staleCrawl).toBeNull();
    const stale = summarize([...items, item('contradicted', [200]), item('contradicted', [200])]);
    expect(stale.staleCrawl).toMatchObject({ code: 'stale_crawl', contradicting: 4, checked: 14 });
    expect(stale.staleCrawl?.message).toContain('4 of 14');
  });

  it('draws the line at exactly 20 %', () => {
    expect(STALE_SHARE).toBe(0.2);
    expect(staleCrawlWarning(10, 50)).toBeNull();
    expect(staleCrawlWarning(11, 50)?.share).toBeCloseTo(0.22);
    expect(staleCrawlWarning(0, 0)).toBeNull();
  });

  it('has empty shares for an empty sample', () => {
    const empty = summarize([]);
    expect(empty.rotRate.n).toBe(0);
    expect(empty.orphanShare.value).toBeNull();
    expect(empty.staleCrawl).toBeNull();
  });
});
