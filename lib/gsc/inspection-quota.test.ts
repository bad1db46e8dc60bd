import { describe, expect, it } from 'vitest';
import { nextPacificMidnight, pacificDay } from './inspection-quota';

describe('Pacific quota days', () => {
  it('counts a call against the Pacific day, not the UTC one', () => {
    // 05:00 UTC on 2 Dec is 21:00 on 1 Dec in Los Angeles (PST, UTC−8).
    expect(pacificDay(new Date('2026-12-02T05:00:00Z'))).toBe('2026-12-01');
    expect(pacificDay(new Date('2026-12-02T08:00:00Z'))).toBe('2026-12-02');
  });

  it('resumes at the next Pacific midnight in winter (UTC−8) and summer (UTC−7)', () => {
    expect(nextPacificMidnight(new Date('2026-12-01T16:30:00Z')).toISOString()).toBe(
      '2026-12-02T08:00:00.000Z',
    );
    expect(nextPacificMidnight(new Date('2026-07-01T16:30:00Z')).toISOString()).toBe(
      '2026-07-02T07:00:00.000Z',
    );
    // Just before midnight: the very next instant's day.
    expect(nextPacificMidnight(new Date('2026-12-02T07:59:59Z')).toISOString()).toBe(
      '2026-12-02T08:00:00.000Z',
    );
  });

  it('finds midnight on the days the clocks change', () => {
    // DST starts 8 Mar 2026 at 2 am PST: that day's midnight is still PST.
    expect(nextPacificMidnight(new Date('2026-03-07T12:00:00Z')).toISOString()).toBe(
      '2026-03-08T08:00:00.000Z',
    );
    // The day after it begins at 00:00 PDT.
    expect(nextPacificMidnight(new Date('2026-03-08T12:00:00Z')).toISOString()).toBe(
      '2026-03-09T07:00:00.000Z',
    );
    // DST ends 1 Nov 2026: that day's midnight is still PDT, the next PST.
    expect(nextPacificMidnight(new Date('2026-10-31T12:00:00Z')).toISOString()).toBe(
      '2026-11-01T07:00:00.000Z',
    );
    expect(nextPacificMidnight(new Date('2026-11-01T12:00:00Z')).toISOString()).toBe(
      '2026-11-02T08:00:00.000Z',
    );
  });
});
