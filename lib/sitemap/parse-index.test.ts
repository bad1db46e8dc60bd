import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '@/lib/test-support/fixtures';
import { collectFixture, locs, warningCodes } from '@/lib/test-support/sitemap-sources';
import { parseRobotsSitemaps } from './robots';

describe('sitemap index fixtures', () => {
  it.each([
    ['index/adv-sitemap_index-selfref.xml', 4],
    ['index/kt-wordpress.org-sitemap-index-jetpack.xml', 3],
    ['index/kt-yoast.com-sitemap-index.xml', 22],
    ['index/refinebio-sitemap-index.xml', 1],
    ['index/sm-alltags-index.xml', 2],
    ['index/usp-simple-index.xml', 2],
    ['index/webignition-sitemap.index.xml', 3],
  ])('%s lists %i child sitemaps', async (file, count) => {
    const result = await collectFixture(file);
    expect(result.error).toBeNull();
    expect(result.stats).toMatchObject({ kind: 'index', entries: count, warnings: [] });
    expect(result.entries.every((entry) => entry.type === 'sitemap')).toBe(true);
  });

  it('reads the Jetpack index behind comments and an xml-stylesheet PI', async () => {
    const result = await collectFixture('index/kt-wordpress.org-sitemap-index-jetpack.xml');
    expect(locs(result)).toEqual([
      'https://wordpress.org/sitemap-1.xml',
      'https://wordpress.org/image-sitemap-1.xml',
      'https://wordpress.org/video-sitemap-1.xml',
    ]);
  });

  it('matches the gopher index golden output', async () => {
    const result = await collectFixture('index/gopher-sitemap-index.xml');
    const groups: string[][] = [];
    for (const line of readFixture('index/gopher-sitemap-index.golden.txt')
      .toString('utf8')
      .trim()
      .split('\n')) {
      if (line.startsWith('http')) groups.push([line]);
      else groups.at(-1)?.push(line);
    }
    expect(result.entries.map((entry) => [entry.loc, entry.lastmod?.getTime() ?? null])).toEqual(
      groups.map(([loc, lastmod]) => [loc, lastmod ? Date.parse(lastmod) : null]),
    );
  });

  it.each([
    ['index/sm-alltags-index.xml', []],
    ['index/sm-alltags-index.cdata.xml', ['unknown_element']],
    ['malformed/sm-bad-tag-index.xml', ['unknown_element']],
  ])('%s equals sm-alltags-index.expected.json', async (file, warnings) => {
    const expected = JSON.parse(readFixture('index/sm-alltags-index.expected.json').toString('utf8')) as {
      sitemaps: { url: string; lastmod: string }[];
    };
    const result = await collectFixture(file);
    expect(result.entries.map((entry) => [entry.loc, entry.lastmodRaw])).toEqual(
      expected.sitemaps.map((sitemap) => [sitemap.url, sitemap.lastmod]),
    );
    expect(warningCodes(result)).toEqual(warnings);
  });

  it('reads CDATA locs between blank lines (tra-sitemap2-index-cdata)', async () => {
    const result = await collectFixture('index/tra-sitemap2-index-cdata.xml');
    expect(locs(result)).toEqual([
      'http://www.example.com/sitemap1.xml.gz',
      'http://www.example.com/sitemap2.xml.gz',
    ]);
  });

  it('reads the google.com legacy-namespace index with a warning', async () => {
    const result = await collectFixture('index/webignition-sitemap.index.google.com-legacy-ns.xml');
    expect(result.entries).toHaveLength(3);
    expect(warningCodes(result)).toEqual(['nonstandard_namespace']);
  });

  it('reads the three webignition children: 3 URLs each, 9 in all', async () => {
    let total = 0;
    for (const n of ['01', '02', '03']) {
      const result = await collectFixture(`index/webignition-children/example.com.sitemap.${n}.xml`);
      expect(result.entries).toHaveLength(3);
      total += result.entries.length;
    }
    expect(total).toBe(9);
  });
});

describe('aafeher mini-site, file by file', () => {
  const site = 'index/aafeher-minisite';

  it.each([
    ['sitemap-01.xml', 1],
    ['sitemap-02.xml', 2],
    ['sitemap-03.xml', 3],
    ['sitemap-04.xml', 1],
    ['sitemap-05.xml', 2],
    ['sitemap-06.xml', 3],
    ['sitemap-follow-alpha-01.xml', 1],
    ['sitemap-follow-alpha-02.xml', 2],
    ['sitemap-follow-beta-01.xml', 1],
    ['sitemap-image-01.xml', 2],
    ['sitemap-news-01.xml', 2],
    ['sitemap-video-01.xml', 2],
    ['sitemapindex-1.xml', 3],
    ['sitemapindex-2.xml', 3],
    ['sitemapindex-follow-1.xml', 3],
    ['sitemapindex-with-invalid-sitemap.xml', 1],
  ])('%s has %i entries, and its .gz twin (if any) the same', async (file, count) => {
    const result = await collectFixture(`${site}/${file}`);
    expect(result.error).toBeNull();
    expect(result.entries).toHaveLength(count);
    if (existsSync(fixturePath(`${site}/${file}.gz`))) {
      const zipped = await collectFixture(`${site}/${file}.gz`);
      expect(zipped.stats.gzip).toBe(true);
      expect(locs(zipped).map((loc) => loc.replace(/\.gz$/, ''))).toEqual(locs(result));
    }
  });

  it.each([
    ['sitemap-empty.xml', 'empty', false],
    ['sitemapindex-empty.xml', 'empty', false],
    ['sitemap-empty.xml.gz', 'empty', true],
    ['sitemapindex-empty.xml.gz', 'empty', true],
    ['sitemapindex-empty-corrupted.xml.gz', 'gzip_error', true],
    ['corrupted.gz', 'gzip_error', true],
  ])('%s fails with %s', async (file, code, gzip) => {
    const result = await collectFixture(`${site}/${file}`);
    expect(result.error?.code).toBe(code);
    expect(result.stats.gzip).toBe(gzip);
    expect(result.entries).toEqual([]);
  });

  /** Walks robots → index → urlsets over the folder, mapping http://HOST/x to the file x. */
  async function walk(robotsFolder: string) {
    const robots = parseRobotsSitemaps(
      readFixture(`${site}/${robotsFolder}/robots.txt`),
      'http://HOST/robots.txt',
    );
    const queue = [...robots.sitemaps];
    const pages: string[] = [];
    let visited = 0;
    let failures = 0;
    while (queue.length > 0) {
      const file = new URL(queue.shift() ?? '').pathname.slice(1);
      visited++;
      if (!existsSync(fixturePath(`${site}/${file}`))) {
        failures++;
        continue;
      }
      const result = await collectFixture(`${site}/${file}`);
      for (const entry of result.entries) (entry.type === 'sitemap' ? queue : pages).push(entry.loc);
    }
    return { pages, visited, failures };
  }

  it.each([
    ['robots-with-sitemapindex', 6, 4, 0],
    ['robots-with-sitemapindex-2', 12, 8, 0],
    ['robots-with-sitemapindex-gz', 6, 4, 0],
    ['robots-with-invalid-sitemap', 0, 1, 1],
    ['robots-without-sitemap', 0, 0, 0],
    ['robots-empty', 0, 0, 0],
  ])(
    '%s leads to %i pages over %i sitemap locations (%i missing)',
    async (folder, pages, visited, failures) => {
      const result = await walk(folder);
      expect(result.pages).toHaveLength(pages);
      expect(result.visited).toBe(visited);
      expect(result.failures).toBe(failures);
      if (pages > 0) expect(result.pages[0]).toBe('http://HOST/page-01');
    },
  );
});
