import { describe, expect, it } from 'vitest';
import { runBaseName, runTimeLabels } from './run-times';

const UTC = { timeZone: 'UTC' };

describe('runTimeLabels', () => {
  it('names runs by day and 24-hour time, as the rest of the app does', () => {
    const labels = runTimeLabels(
      [
        { id: 'night', createdAt: '2026-12-02T00:26:14Z' },
        { id: 'afternoon', createdAt: '2026-12-03T15:05:00Z' },
      ],
      UTC,
    );
    expect(labels.get('night')).toBe('2 Dec, 00:26');
    expect(labels.get('afternoon')).toBe('3 Dec, 15:05');
  });

  it('tells apart runs of the same minute by their seconds, and of the same second by a run number', () => {
    const runs = [
      { id: 'c', createdAt: '2026-12-02T00:26:50.100Z' },
      { id: 'a', createdAt: '2026-12-02T00:26:14.000Z' },
      { id: 'b', createdAt: '2026-12-02T00:26:50.000Z' },
      { id: 'd', createdAt: '2026-12-02T00:31:00.000Z' },
    ];
    const labels = runTimeLabels(runs, UTC);
    expect(Object.fromEntries(labels)).toEqual({
      a: '2 Dec, 00:26:14',
      b: '2 Dec, 00:26:50 · run 1',
      c: '2 Dec, 00:26:50 · run 2',
      d: '2 Dec, 00:31',
    });
    expect(new Set(labels.values()).size).toBe(runs.length);
  });

  it('adds the year when asked (the runs table and the diff have room for it)', () => {
    const labels = runTimeLabels(
      [
        { id: 'a', createdAt: '2026-12-02T00:26:14Z' },
        { id: 'b', createdAt: '2026-12-02T00:26:40Z' },
      ],
      { ...UTC, withYear: true },
    );
    expect(labels.get('a')).toBe('2 Dec 2026, 00:26:14');
    expect(labels.get('b')).toBe('2 Dec 2026, 00:26:40');
  });
});

describe('runBaseName', () => {
  it("drops the start time and trigger a repeated run's name ends with", () => {
    expect(runBaseName('Monitored site — 2026-12-02 00:32 UTC (scheduled)')).toBe('Monitored site');
    expect(runBaseName('Shop — 2026-12-02 00:32 UTC')).toBe('Shop');
    expect(runBaseName('Shop — 2026-12-02 00:32 UTC — 2026-12-02 01:25 UTC')).toBe('Shop');
    expect(runBaseName('Pages audit, bulk')).toBe('Pages audit, bulk');
  });
});
