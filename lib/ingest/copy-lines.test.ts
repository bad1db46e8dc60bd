import { describe, expect, it } from 'vitest';
import type { CrawlRow } from '@/lib/crawl/types';
import type { SitemapUrlEntry } from '@/lib/sitemap/types';
import {
  CRAWL_COLUMNS,
  copyValue,
  ENTRY_COLUMNS,
  encodeCrawlRows,
  encodeEntries,
  FactsTally,
} from './copy-lines';

const row = (line: number, url: string, more: Partial<CrawlRow> = {}): CrawlRow => ({
  line,
  url,
  status: 200,
  canonical: null,
  indexable: true,
  noindex: false,
  blockedByRobots: false,
  crawledAt: null,
  depth: 1,
  redirectUrl: null,
  contentType: 'text/html',
  inlinks: null,
  canonicalised: false,
  ...more,
});

const entry = (position: number, loc: string, lastmod: Date | null = null): SitemapUrlEntry => ({
  type: 'url',
  loc,
  lastmodRaw: lastmod?.toISOString() ?? null,
  lastmod,
  changefreq: null,
  priority: 0.5,
  images: 0,
  videos: 0,
  news: 0,
  alternates: 0,
  position,
  line: position + 1,
});

describe('copyValue', () => {
  it.each([
    [null, '\\N'],
    [undefined, '\\N'],
    [true, 't'],
    [false, 'f'],
    [42, '42'],
    [Number.NaN, '\\N'],
    [new Date('2026-01-02T03:04:05.006Z'), '2026-01-02T03:04:05.006Z'],
    [new Date('invalid'), '\\N'],
    ['plain', 'plain'],
    ['a\\b\tc\nd\re\0f', 'a\\\\b\\tc\\nd\\ref'],
  ])('encodes %j as %j', (value, encoded) => {
    expect(copyValue(value as never)).toBe(encoded);
  });
});

describe('encodeCrawlRows', () => {
  it('encodes one line per valid row, returns rows whose URL does not parse, and tallies facts', () => {
    const tally = new FactsTally();
    const { text, written, invalid } = encodeCrawlRows(
      [
        row(2, 'https://example.com/a', {
          canonical: 'https://example.com/a',
          crawledAt: new Date('2026-05-01T00:00:00Z'),
        }),
        row(3, 'https://exa mple.com/bad'),
        row(4, 'https://example.com/b', {
          status: 301,
          redirectUrl: 'https://EXAMPLE.com/c',
          crawledAt: new Date('2026-06-01T00:00:00Z'),
        }),
      ],
      'exact',
      tally,
    );
    expect(written).toBe(2);
    expect(invalid.map((r) => r.line)).toEqual([3]);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(lines).toHaveLength(2);
    for (const cells of lines) expect(cells).toHaveLength(CRAWL_COLUMNS.length);
    const [first, second] = lines as [string[], string[]];
    expect(first.slice(0, 3)).toEqual(['2', 'https://example.com/a', 'https://example.com/a']);
    // A self-canonical reuses the page's own key.
    expect(first[CRAWL_COLUMNS.indexOf('canonical_key')]).toBe('https://example.com/a');
    expect(second[CRAWL_COLUMNS.indexOf('redirect_key')]).toBe('https://example.com/c');
    expect(second[CRAWL_COLUMNS.indexOf('canonical_key')]).toBe('\\N');
    expect(tally.facts()).toEqual({
      rows: 2,
      keyed: 2,
      distinct: 2,
      latest: new Date('2026-06-01T00:00:00Z'),
    });
  });

  it('reports keys as not known to be distinct when two rows share one', () => {
    const tally = new FactsTally();
    encodeCrawlRows([row(2, 'https://example.com/a'), row(3, 'HTTPS://EXAMPLE.COM/a')], 'exact', tally);
    expect(tally.facts()).toMatchObject({ keyed: 2, distinct: null, latest: null });
  });
});

describe('encodeEntries', () => {
  it('stores a loc that is not a URL without keys, counted as a row but not as a key', () => {
    const tally = new FactsTally();
    const text = encodeEntries(
      '7\t',
      [entry(1, 'https://example.com/x', new Date('2026-03-01T00:00:00Z')), entry(2, 'not a url')],
      'exact',
      tally,
    );
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    for (const cells of lines) expect(cells).toHaveLength(ENTRY_COLUMNS.length);
    expect(lines[1]?.slice(0, 5)).toEqual(['7', '2', 'not a url', '\\N', '\\N']);
    expect(tally.facts()).toEqual({
      rows: 2,
      keyed: 1,
      distinct: 1,
      latest: new Date('2026-03-01T00:00:00Z'),
    });
  });
});
