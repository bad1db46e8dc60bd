import { describe, expect, it } from 'vitest';
import { bandOf, gapOf, isFetchProblem, isStale } from './gap-stats';

describe('bandOf', () => {
  it.each([
    [0, 'normal'],
    [0.099, 'normal'],
    [0.1, 'investigate'],
    [0.3, 'investigate'],
    [3 / 10, 'investigate'],
    [0.301, 'problem'],
    [1, 'problem'],
  ])('%s → %s', (share, band) => {
    expect(bandOf(share)).toBe(band);
  });
});

describe('gapOf', () => {
  it('is the known gap when the whole file is known, with no interval', () => {
    expect(
      gapOf({ submitted: 200, indexed: 150, notIndexed: 50, sampled: 20, sampledNotIndexed: 5 }),
    ).toEqual({
      unknown: 0,
      gapPct: 0.25,
      gapLow: null,
      gapHigh: null,
      judged: 0.25,
      band: 'investigate',
      basis: 'known',
    });
  });

  it('is the known gap (a lower bound) when nothing of the file was inspected', () => {
    const gap = gapOf({ submitted: 1000, indexed: 1, notIndexed: 99, sampled: 0, sampledNotIndexed: 0 });
    expect(gap).toMatchObject({ unknown: 900, gapPct: 0.099, basis: 'known', band: 'normal', gapLow: null });
  });

  it('bands a file with under 10 % of it known "insufficient", never normal', () => {
    // The real case: 5 known URLs of 1,352 submitted, none of them not indexed (0 %).
    const real = gapOf({ submitted: 1352, indexed: 5, notIndexed: 0, sampled: 0, sampledNotIndexed: 0 });
    expect(real).toMatchObject({ gapPct: 0, band: 'insufficient', basis: 'known' });
    // 99 of 1,000 known is under 10 %; 100 of 1,000 is enough.
    expect(
      gapOf({ submitted: 1000, indexed: 0, notIndexed: 99, sampled: 0, sampledNotIndexed: 0 }).band,
    ).toBe('insufficient');
    expect(
      gapOf({ submitted: 1000, indexed: 100, notIndexed: 0, sampled: 0, sampledNotIndexed: 0 }).band,
    ).toBe('normal');
    // A thin sample that looks normal (2 inspected, both indexed) is not evidence of a normal file.
    const sample = gapOf({ submitted: 1000, indexed: 2, notIndexed: 0, sampled: 2, sampledNotIndexed: 0 });
    expect(sample).toMatchObject({ basis: 'estimate', band: 'insufficient' });
    // Nothing known at all.
    expect(gapOf({ submitted: 10, indexed: 0, notIndexed: 0, sampled: 0, sampledNotIndexed: 0 }).band).toBe(
      'insufficient',
    );
  });

  it('estimates from the inspected sample with the Wilson interval by hand (3 of 10: 10.78 %–60.32 %)', () => {
    // p = 0.3, z = 1.95996: centre (0.3 + z²/20) / (1 + z²/10) = 0.35551, half-width 0.24772.
    const gap = gapOf({ submitted: 1000, indexed: 7, notIndexed: 3, sampled: 10, sampledNotIndexed: 3 });
    expect(gap.basis).toBe('estimate');
    expect(gap.unknown).toBe(990);
    expect(gap.gapPct).toBeCloseTo(0.003, 10);
    expect(gap.judged).toBeCloseTo(0.3, 10);
    expect(gap.gapLow).toBeCloseTo(0.10779, 4);
    expect(gap.gapHigh).toBeCloseTo(0.60322, 4);
    // Only 10 of 1,000 are known, but the whole interval is over 10 %: the sample shows a gap.
    expect(gap.band).toBe('investigate');
  });

  it('clips the interval to what is certain: no lower than the known gap, no higher than all not indexed', () => {
    // 60 known not indexed out of 100 (0.6), sample of 10 with none not indexed: the sample says ~0,
    // but 60 % is certain.
    const low = gapOf({ submitted: 100, indexed: 30, notIndexed: 60, sampled: 10, sampledNotIndexed: 0 });
    expect(low.gapLow).toBeCloseTo(0.6, 10);
    expect(low.judged).toBeCloseTo(0.6, 10);
    expect(low.gapHigh).toBeCloseTo(0.6, 10);
    expect(low.band).toBe('problem');
    // 95 indexed for certain: at most 5 % can be missing, whatever a small sample says.
    const high = gapOf({ submitted: 100, indexed: 95, notIndexed: 0, sampled: 2, sampledNotIndexed: 2 });
    expect(high.gapHigh).toBeCloseTo(0.05, 10);
    expect(high.judged).toBeCloseTo(0.05, 10);
    expect(high.band).toBe('normal');
  });

  it('has no gap for a file with nothing submitted', () => {
    expect(
      gapOf({ submitted: 0, indexed: 0, notIndexed: 0, sampled: 0, sampledNotIndexed: 0 }),
    ).toMatchObject({
      gapPct: null,
      band: null,
    });
  });
});

describe('flags', () => {
  it('treats anything but success as a fetch problem, no status as none', () => {
    expect(isFetchProblem('Success')).toBe(false);
    expect(isFetchProblem('Réussite')).toBe(false);
    expect(isFetchProblem(" Couldn't fetch")).toBe(true);
    expect(isFetchProblem('Has errors')).toBe(true);
    expect(isFetchProblem(null)).toBe(false);
    expect(isFetchProblem('')).toBe(false);
  });

  it('is stale more than 14 days before the import date', () => {
    expect(isStale('2026-11-17', '2026-12-01')).toBe(false);
    expect(isStale('2026-11-16', '2026-12-01')).toBe(true);
    expect(isStale(null, '2026-12-01')).toBe(false);
  });
});
