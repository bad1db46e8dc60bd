import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { collectFixture, locs, warningCodes } from '@/lib/test-support/sitemap-sources';
import type { SitemapUrlEntry } from './types';

const urlEntries = (entries: unknown[]) => entries as SitemapUrlEntry[];

describe('parseSitemapBatches over the XML urlset fixtures', () => {
  it.each([
    ['xml/adv-regular_sitemap.xml', 5],
    ['xml/tra-sitemaps.org-sitemap.xml', 84],
    ['xml/breakroom-sitemap-100-urls.xml', 100],
    ['xml/sm-cli-urls.json.xml', 2],
    ['xml/squirrelscan-good-sitemap.xml', 5],
    ['xml/recon-ayrshire-sitemap.xml', 79],
    ['xml/recon-dhmguide-sitemap.xml', 177],
    ['xml/recon-mikenelson-sitemap.xml', 45],
    ['xml/kt-jan.alphadev.net-weird-formatting.xml', 214],
  ])('%s has %i unique URLs and no warnings', async (file, count) => {
    const result = await collectFixture(file);
    expect(result.error).toBeNull();
    expect(result.entries).toHaveLength(count);
    expect(new Set(locs(result)).size).toBe(count);
    const size = readFixture(file).length;
    expect(result.stats).toMatchObject({
      kind: 'urlset',
      entries: count,
      gzip: false,
      warnings: [],
      compressedBytes: size,
      uncompressedBytes: size,
    });
    expect(result.entries.every((entry) => entry.type === 'url')).toBe(true);
  });

  it('reads the prefixed sit:urlset namespace (cc-sitemap.ns)', async () => {
    const result = await collectFixture('xml/cc-sitemap.ns.xml');
    expect(locs(result)).toEqual(['http://www.example.com/1', 'http://www.example.com/2']);
    expect(urlEntries(result.entries)[0]?.changefreq).toBe('daily');
    expect(result.stats.warnings).toEqual([]);
  });

  it('decodes &amp; in locs and parses date and datetime lastmods (adv-regular_sitemap)', async () => {
    const result = await collectFixture('xml/adv-regular_sitemap.xml');
    const entries = urlEntries(result.entries);
    expect(entries[1]?.loc).toBe('http://www.example.com/catalog?item=12&desc=vacation_hawaii');
    expect(entries[0]).toMatchObject({ lastmodRaw: '2005-01-01', changefreq: 'monthly', priority: 0.8 });
    expect(entries[0]?.lastmod?.toISOString()).toBe('2005-01-01T00:00:00.000Z');
    expect(entries[1]).toMatchObject({ lastmodRaw: null, lastmod: null, priority: null });
    expect(entries[3]?.lastmod?.toISOString()).toBe('2004-12-23T18:00:15.000Z');
    expect(entries.map((entry) => entry.position)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[0]?.line).toBe(5);
  });

  it('matches the gopher golden output (loc, RFC 3339 lastmod, changefreq, priority)', async () => {
    const result = await collectFixture('xml/gopher-sitemap.xml');
    // Golden groups: loc, lastmod (only when present), changefreq, priority; the library prints
    // its defaults (always, 0.5) for absent changefreq/priority.
    const groups: string[][] = [];
    for (const line of readFixture('xml/gopher-sitemap.golden.txt').toString('utf8').trim().split('\n')) {
      if (line.startsWith('http')) groups.push([line]);
      else groups.at(-1)?.push(line);
    }
    expect(result.entries).toHaveLength(groups.length);
    urlEntries(result.entries).forEach((entry, i) => {
      const group = groups[i] ?? [];
      const [loc, lastmod, changefreq, priority] =
        group.length === 4 ? group : [group[0], null, ...group.slice(1)];
      expect(entry.loc).toBe(loc);
      expect(entry.lastmod?.getTime() ?? null).toBe(lastmod ? Date.parse(lastmod) : null);
      expect(entry.changefreq ?? 'always').toBe(changefreq);
      expect(entry.priority ?? 0.5).toBe(Number(priority));
    });
    expect(urlEntries(result.entries)[2]?.lastmod?.toISOString()).toBe('2015-05-07T00:00:00.000Z');
  });

  it('keeps empty <lastmod></lastmod> non-fatal and null (kt-jan weird formatting)', async () => {
    const result = await collectFixture('xml/kt-jan.alphadev.net-weird-formatting.xml');
    const entries = urlEntries(result.entries);
    expect(entries.filter((entry) => entry.lastmodRaw === null)).toHaveLength(81);
    expect(entries.filter((entry) => entry.lastmod !== null)).toHaveLength(133);
    expect(entries.every((entry) => entry.loc === entry.loc.trim() && entry.loc.startsWith('http'))).toBe(
      true,
    );
  });

  it('reads all recon-ayrshire URLs on the www host despite comments between entries', async () => {
    const result = await collectFixture('xml/recon-ayrshire-sitemap.xml');
    expect(locs(result).every((loc) => new URL(loc).host === 'www.ayrshirefencinggroup.com')).toBe(true);
  });

  it.each([
    ['xml/usp-simple-urlset-ns-trailing-slash.xml', 2],
    ['xml/webignition-sitemap.0.84-legacy-ns.xml', 3],
  ])('reads %s in a variant namespace with a nonstandard_namespace warning', async (file, count) => {
    const result = await collectFixture(file);
    expect(result.entries).toHaveLength(count);
    expect(warningCodes(result)).toEqual(['nonstandard_namespace']);
  });

  it('lists the legacy 0.84 locs exactly', async () => {
    const result = await collectFixture('xml/webignition-sitemap.0.84-legacy-ns.xml');
    expect(locs(result)).toEqual([1, 2, 3].map((n) => `http://example.com/xml/${n}`));
  });
});

describe('parseSitemapBatches over RSS and Atom feeds', () => {
  it('reads the crawler-commons RSS feed: link, guid fallback, entity and CDATA locs', async () => {
    const result = await collectFixture('xml/cc-feed.rss');
    expect(result.stats.kind).toBe('rss');
    expect(locs(result)).toEqual([
      'https://www.example.com/blog/post/1',
      'https://www.example.com/guid.html',
      'https://www.example.com/foo?q=a&l=en',
      'https://www.example.com/foo?q=a&l=fr',
    ]);
    expect(result.entries[0]?.lastmod?.toISOString()).toBe('2009-09-06T16:20:00.000Z');
  });

  it('parses RSS pubDate variants; items 5..7 have no lastmod', async () => {
    const result = await collectFixture('xml/cc-xmlRss_pubDate.xml');
    expect(result.entries).toHaveLength(7);
    expect(result.entries.map((entry) => entry.lastmod?.toISOString() ?? null)).toEqual([
      '2017-01-05T12:34:51.000Z',
      '2017-01-05T12:34:52.000Z',
      '2017-01-05T12:34:53.000Z',
      '2017-01-05T12:34:54.000Z',
      null,
      null,
      null,
    ]);
    expect(result.entries[4]?.lastmodRaw).toBe('05 Jan 17 13:34:55');
    expect(result.entries[5]?.lastmodRaw).toBeNull();
  });

  it('reads RSS 2.0 with a literal UTC zone (usp-rss2.0)', async () => {
    const result = await collectFixture('xml/usp-rss2.0.xml');
    expect(locs(result)).toEqual(['https://example.org/page1', 'https://example.org/page2']);
    expect(result.entries[0]?.lastmod?.toISOString()).toBe('2024-01-01T12:00:00.000Z');
  });

  it('reads an Atom 1.0 entry: first alternate-or-unnamed link, updated as lastmod (cc-atom)', async () => {
    const result = await collectFixture('xml/cc-atom.xml');
    expect(result.stats.kind).toBe('atom');
    expect(locs(result)).toEqual(['http://example.org/2003/12/13/atom03']);
    expect(result.entries[0]?.lastmod?.getUTCMonth()).toBe(11);
  });

  it.each([['xml/usp-atom1.0.xml'], ['xml/usp-atom0.3.xml']])(
    'reads %s as 2 atom URLs with dates',
    async (file) => {
      const result = await collectFixture(file);
      expect(locs(result)).toEqual(['https://example.org/page1', 'https://example.org/page2']);
      expect(result.entries.every((entry) => entry.lastmod instanceof Date)).toBe(true);
    },
  );
});
