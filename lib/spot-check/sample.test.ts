import { describe, expect, it } from 'vitest';
import { seededRandom } from '@/lib/test-support/random';
import { allocateSample, DEFAULT_SAMPLE_SIZE } from './sample';

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

describe('allocateSample', () => {
  it('gives a rare reason one row and splits the rest by largest remainder', () => {
    // Quotas of the 47 slots left: 42.42, 4.20, 0.42 → floors 42, 4, 0; the last slot goes to c (0.4247 > 0.4227).
    expect(allocateSample({ a: 900, b: 90, c: 10 }, 50)).toEqual({ a: 43, b: 5, c: 2 });
    expect(allocateSample({ unreached_by_crawl: 9_990, http_410: 1 }, DEFAULT_SAMPLE_SIZE)).toEqual({
      unreached_by_crawl: 49,
      http_410: 1,
    });
  });

  it('takes every row when there are no more than asked for', () => {
    expect(allocateSample({ a: 3, b: 2, none: 0 }, 5)).toEqual({ a: 3, b: 2 });
    expect(allocateSample({ a: 3 }, 50)).toEqual({ a: 3 });
    expect(allocateSample({}, 50)).toEqual({});
  });

  it('takes one row of each of the largest reasons when there are more reasons than rows', () => {
    expect(allocateSample({ a: 5, b: 9, c: 1, d: 9 }, 2)).toEqual({ b: 1, d: 1 });
    expect(allocateSample({ a: 5, b: 9 }, 0)).toEqual({});
  });

  it('breaks ties the same way whatever the order of the counts', () => {
    expect(allocateSample({ b: 3, a: 3 }, 3)).toEqual({ a: 2, b: 1 });
    expect(allocateSample({ a: 3, b: 3 }, 3)).toEqual({ a: 2, b: 1 });
  });

  it('always sums to n, gives every reason at least one and never more than it has (random counts)', () => {
    const random = seededRandom(12);
    for (let round = 0; round < 500; round++) {
      const counts: Record<string, number> = {};
      const reasons = 1 + Math.floor(random() * 12);
      for (let r = 0; r < reasons; r++) counts[`r${r}`] = 1 + Math.floor(random() ** 3 * 5_000);
      const n = 1 + Math.floor(random() * 120);
      const taken = allocateSample(counts, n);
      const total = sum(counts);
      expect(sum(taken)).toBe(Math.min(n, total));
      for (const [reason, count] of Object.entries(taken)) {
        expect(count).toBeGreaterThanOrEqual(1);
        expect(count).toBeLessThanOrEqual(counts[reason] ?? 0);
      }
      if (n >= reasons) {
        expect(Object.keys(taken).length).toBe(reasons);
        if (total > n) {
          // Proportional: each reason is within one row of 1 + its exact quota.
          for (const [reason, count] of Object.entries(counts)) {
            const quota = 1 + ((n - reasons) * (count - 1)) / (total - reasons);
            expect(Math.abs((taken[reason] ?? 0) - quota)).toBeLessThan(1);
          }
        }
      }
    }
  });
});
