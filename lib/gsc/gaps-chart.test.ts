import { describe, expect, it } from 'vitest';
import {
  flagWords,
  formatGap,
  indexAxes,
  prepareGapBars,
  prepareIndexSeries,
  shortSitemapName,
} from './gaps-chart';
import type { PropertyTotals, SitemapGapDto } from './gaps-shape';

function row(fileId: number, gap: number | null, extra: Partial<SitemapGapDto> = {}): SitemapGapDto {
  return {
    sitemap: `https://example.com/sitemaps/file-${fileId}.xml`,
    fileId,
    submitted: 100,
    indexed: 0,
    notIndexed: 0,
    notIndexedByReason: [],
    unknown: 100,
    sampled: 0,
    gapPct: gap,
    gapLow: null,
    gapHigh: null,
    gapJudged: gap,
    band: gap === null ? null : gap < 0.1 ? 'normal' : gap <= 0.3 ? 'investigate' : 'problem',
    basis: 'known',
    lastRead: null,
    status: null,
    submittedOn: null,
    reportLine: null,
    flags: { stale: false, fetchProblem: false, notInSearchConsole: false },
    ...extra,
  };
}

describe('prepareGapBars', () => {
  it('draws the largest gaps in percent, folds the rest, skips files without a gap', () => {
    const data = prepareGapBars([row(1, 0.5), row(2, 0.301), row(3, 0.099), row(4, null)], 2);
    expect(data.bars.map((b) => [b.fileId, b.label, b.gap, b.band])).toEqual([
      [1, 'file-1.xml', 50, 'problem'],
      [2, 'file-2.xml', 30.1, 'problem'],
    ]);
    expect(data.folded).toBe(1);
    expect(prepareGapBars([row(4, null)]).isEmpty).toBe(true);
  });

  it('does not draw a file without enough data (its near-zero bar would read as fine), and counts it', () => {
    const data = prepareGapBars([row(1, 0.5), row(2, 0, { band: 'insufficient' })]);
    expect(data.bars.map((b) => b.fileId)).toEqual([1]);
    expect(data.insufficient).toBe(1);
    expect(prepareGapBars([row(2, 0, { band: 'insufficient' })]).isEmpty).toBe(true);
  });

  it('carries an estimate’s interval', () => {
    const [bar] = prepareGapBars([
      row(1, 0.3, { basis: 'estimate', gapLow: 0.10779, gapHigh: 0.60322 }),
    ]).bars;
    expect(bar).toMatchObject({ gap: 30, low: 10.78, high: 60.32, basis: 'estimate' });
  });
});

describe('formatting', () => {
  it('writes a known gap, an estimate with its interval, and the flags', () => {
    expect(formatGap(row(1, 0.099))).toBe('9.9 %');
    expect(formatGap(row(1, 0.3))).toBe('30 %');
    expect(formatGap(row(1, 0.3, { basis: 'estimate', gapLow: 0.1078, gapHigh: 0.6032 }))).toBe(
      '≈ 30 % (11–60 %)',
    );
    expect(
      flagWords(row(1, 0, { flags: { stale: true, fetchProblem: true, notInSearchConsole: true } })),
    ).toEqual(['fetch problem', 'not read for 14+ days', 'not in Search Console']);
    expect(shortSitemapName('sitemap.xml')).toBe('sitemap.xml');
    expect(shortSitemapName('https://example.com/')).toBe('example.com');
  });

  it('leaves out the chart’s first days without counts', () => {
    const property = {
      series: [
        { date: '2025-07-24', indexed: null, notIndexed: null },
        { date: '2025-07-25', indexed: 54, notIndexed: 93 },
      ],
    } as PropertyTotals;
    expect(prepareIndexSeries(property)).toEqual([{ date: '2025-07-25', indexed: 54, notIndexed: 93 }]);
    expect(prepareIndexSeries(null)).toEqual([]);
  });
});

describe('indexAxes', () => {
  const day = (i: number, indexed: number, notIndexed: number) => ({
    date: `2025-08-${String(i + 1).padStart(2, '0')}`,
    indexed,
    notIndexed,
  });

  it('gives the report’s line chart a round scale over the largest count and dated ends', () => {
    const points = Array.from({ length: 10 }, (_, i) => day(i, 78, 600 + i * 15));
    const axes = indexAxes(points);
    expect(axes.top).toBe(800);
    expect(axes.yTicks).toEqual([0, 200, 400, 600, 800]);
    expect(axes.xTicks).toEqual([
      { index: 0, date: '2025-08-01' },
      { index: 3, date: '2025-08-04' },
      { index: 6, date: '2025-08-07' },
      { index: 9, date: '2025-08-10' },
    ]);
  });

  it('labels each day once when there are fewer days than labels, and scales small counts', () => {
    const axes = indexAxes([day(0, 3, 1), day(1, 2, 0)]);
    expect(axes.xTicks.map((t) => t.index)).toEqual([0, 1]);
    expect(axes.top).toBeGreaterThanOrEqual(3);
    expect(axes.yTicks[0]).toBe(0);
    expect(axes.yTicks.at(-1)).toBe(axes.top);
    expect(indexAxes([day(0, 1, 0)]).yTicks).toEqual([0, 1]);
    expect(indexAxes([]).xTicks).toEqual([]);
  });
});
