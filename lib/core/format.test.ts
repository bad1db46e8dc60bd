import { describe, expect, it } from 'vitest';
import {
  countText,
  formatBytes,
  formatCount,
  formatDateTime,
  formatDuration,
  formatRelativeTime,
  progressPercent,
  reviewedShare,
} from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [10 * 1024 + 700, '11 KiB'],
    [5 * 1024 * 1024, '5 MiB'],
    [1024 * 1024 - 1, '1 MiB'],
    [3.25 * 1024 ** 3, '3.3 GiB'],
  ])('%d → %s', (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });

  it('shows a dash for unknown sizes', () => {
    expect(formatBytes(null)).toBe('—');
    expect(formatBytes(undefined)).toBe('—');
    expect(formatBytes(-1)).toBe('—');
  });
});

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('—');
  });
});

describe('progressPercent', () => {
  it('is null (indeterminate) when the total is unknown', () => {
    expect(progressPercent({ done: 3, total: 0 })).toBeNull();
  });
  it('floors and clamps', () => {
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 5, total: 4 })).toBe(100);
    expect(progressPercent({ done: 0, total: 10 })).toBe(0);
  });
});

describe('dates', () => {
  it('formats an instant in a given time zone', () => {
    expect(formatDateTime('2026-11-30T12:05:00Z', 'UTC')).toBe('30 Nov 2026, 12:05');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatDateTime(null)).toBe('—');
  });

  it('describes how long ago something happened', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(formatRelativeTime('2026-11-30T11:59:50Z', now)).toBe('just now');
    expect(formatRelativeTime('2026-11-30T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelativeTime('2026-11-30T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelativeTime('2026-11-29T11:00:00Z', now)).toBe('1 day ago');
    expect(formatRelativeTime('2026-11-20T12:00:00Z', now)).toBe('10 days ago');
  });

  it('formats durations', () => {
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:00:04.2Z')).toBe('4.2 s');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T00:03:05Z')).toBe('3 min 5 s');
    expect(formatDuration('2026-01-01T00:00:00Z', '2026-01-01T02:04:00Z')).toBe('2 h 4 min');
    expect(formatDuration('2026-01-01T00:00:00Z', null)).toBeNull();
  });
});

describe('reviewedShare', () => {
  it('is the decided share of every list, rounded down so 100 % means all of them', () => {
    expect(reviewedShare({ prune: 2, add: 1, held: 0, decided: 0 })).toEqual({
      decided: 0,
      total: 3,
      percent: 0,
    });
    expect(reviewedShare({ prune: 100, add: 99, held: 1, decided: 199 })).toEqual({
      decided: 199,
      total: 200,
      percent: 99,
    });
    expect(reviewedShare({ prune: 1, add: 0, held: 1, decided: 2 })?.percent).toBe(100);
  });

  it('is null when there is nothing to review', () => {
    expect(reviewedShare({ prune: 0, add: 0, held: 0, decided: 0 })).toBeNull();
  });
});

describe('countText', () => {
  it('puts the noun in the number of the count', () => {
    expect(countText(1, 'row')).toBe('1 row');
    expect(countText(0, 'row')).toBe('0 rows');
    expect(countText(1200, 'row')).toBe('1,200 rows');
    expect(countText(1, 'entry', 'entries')).toBe('1 entry');
    expect(countText(2, 'entry', 'entries')).toBe('2 entries');
  });
});
