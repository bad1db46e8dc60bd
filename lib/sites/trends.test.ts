import { describe, expect, it } from 'vitest';
import { OTHER_KEY } from '@/lib/findings/chart-data';
import type { ChangeCounts, ListCounts, SiteRunDto } from './schema';
import { prepareSiteTrends, TREND_REASONS } from './trends';

const noChanges: ChangeCounts = {
  url_added: 0,
  url_lastmod_changed: 0,
  url_removed_pending: 0,
  url_removed_confirmed: 0,
  url_moved: 0,
};
const list = (byReason: Record<string, number>): ListCounts => ({
  total: Object.values(byReason).reduce((sum, n) => sum + n, 0),
  byReason,
});

function run(id: string, createdAt: string, over: Partial<SiteRunDto> = {}): SiteRunDto {
  return {
    id,
    name: id,
    status: 'succeeded',
    complete: true,
    trigger: 'manual',
    rerunOf: null,
    crawlRepeatOf: null,
    createdAt,
    finishedAt: createdAt,
    declaredUrls: 10,
    reusedFiles: 0,
    findings: { prune: list({}), add: list({}), held: list({}) },
    gapPercent: null,
    spotCheck: null,
    changes: noChanges,
    ...over,
  };
}

const label = (r: SiteRunDto) => r.id;

describe('prepareSiteTrends', () => {
  it('orders runs oldest first and draws declared URLs of complete runs only', () => {
    const trends = prepareSiteTrends(
      [
        run('c', '2026-12-03T00:00:00Z', { declaredUrls: 30 }),
        run('b', '2026-12-02T00:00:00Z', { declaredUrls: 2, status: 'partial', complete: false }),
        run('a', '2026-12-01T00:00:00Z', { declaredUrls: 10 }),
      ],
      label,
    );
    expect(trends.declared).toEqual([
      { key: 'a', label: 'a', declared: 10 },
      { key: 'c', label: 'c', declared: 30 },
    ]);
  });

  it('stacks a list per reason, the smallest reasons folded into "other", runs before reconciliation left out', () => {
    const many = Object.fromEntries(
      Array.from({ length: TREND_REASONS + 2 }, (_, i) => [`http_4${String(i).padStart(2, '0')}`, 100 - i]),
    );
    const trends = prepareSiteTrends(
      [
        run('a', '2026-12-01T00:00:00Z', {
          findings: { prune: list(many), add: list({ reachable_not_declared: 3 }), held: list({}) },
        }),
        run('b', '2026-12-02T00:00:00Z', { findings: null, status: 'running', complete: false }),
      ],
      label,
    );
    const keys = trends.prune.series.map((s) => s.key);
    expect(keys).toHaveLength(TREND_REASONS);
    expect(keys.at(-1)).toBe(OTHER_KEY);
    expect(keys[0]).toBe('http_400');
    const row = trends.prune.rows[0];
    expect(trends.prune.rows).toHaveLength(1);
    // Nothing lost in the fold: the stacked counts add up to the list's total.
    expect(Object.values(row?.counts ?? {}).reduce((s, n) => s + n, 0)).toBe(row?.total);
    expect(row?.counts[OTHER_KEY]).toBe(95 + 94 + 93);
    expect(trends.add.series).toEqual([
      expect.objectContaining({ key: 'reachable_not_declared', label: expect.any(String) }),
    ]);
    expect(trends.add.rows[0]?.counts).toEqual({ reachable_not_declared: 3 });
  });

  it('keeps every reason when there are few enough (no "other" of one)', () => {
    const byReason = Object.fromEntries(Array.from({ length: TREND_REASONS }, (_, i) => [`r${i}`, i + 1]));
    const trends = prepareSiteTrends(
      [
        run('a', '2026-12-01T00:00:00Z', {
          findings: { prune: list(byReason), add: list({}), held: list({}) },
        }),
      ],
      label,
    );
    expect(trends.prune.series.map((s) => s.key)).not.toContain(OTHER_KEY);
    expect(trends.prune.series).toHaveLength(TREND_REASONS);
  });

  it('shows the gap only where some run has one', () => {
    expect(prepareSiteTrends([run('a', '2026-12-01T00:00:00Z')], label).gap).toBeNull();
    const trends = prepareSiteTrends(
      [run('a', '2026-12-01T00:00:00Z', { gapPercent: 12.5 }), run('b', '2026-12-02T00:00:00Z')],
      label,
    );
    expect(trends.gap).toEqual([{ key: 'a', label: 'a', gap: 12.5 }]);
  });

  it('draws the spot-check rot rate of runs that have one with a rate', () => {
    expect(prepareSiteTrends([run('a', '2026-12-01T00:00:00Z')], label).rot).toBeNull();
    const trends = prepareSiteTrends(
      [
        run('a', '2026-12-01T00:00:00Z', { spotCheck: { rotPercent: 4.2, checked: 50 } }),
        run('b', '2026-12-02T00:00:00Z', { spotCheck: { rotPercent: null, checked: 0 } }),
      ],
      label,
    );
    expect(trends.rot).toEqual([{ key: 'a', label: 'a', rot: 4.2, checked: 50 }]);
  });
});
