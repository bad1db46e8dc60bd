import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { collectFixture, locs, warningCodes } from '@/lib/test-support/sitemap-sources';
import type { SitemapUrlEntry } from './types';

async function urlsOf(file: string): Promise<SitemapUrlEntry[]> {
  const result = await collectFixture(file);
  expect(result.error).toBeNull();
  return result.entries.filter((entry): entry is SitemapUrlEntry => entry.type === 'url');
}

const sum = (entries: SitemapUrlEntry[], key: 'images' | 'videos' | 'news' | 'alternates') =>
  entries.reduce((total, entry) => total + entry[key], 0);

describe('extension fixtures: counts per URL', () => {
  it.each([
    // file, URLs, images, videos, news, alternates (totals over the file)
    ['extensions/cc-sitemap-videos.xml', 3, 0, 3, 0, 0],
    ['extensions/cc-sitemap-videos-tvshow.xml', 1, 0, 1, 0, 0],
    ['extensions/cc-sitemap-images.xml', 1, 2, 0, 0, 0],
    ['extensions/cc-sitemap-links.xml', 3, 0, 0, 0, 9],
    ['extensions/cc-sitemap-news.xml', 2, 0, 0, 2, 0],
    ['extensions/cc-sitemap-mobile.xml', 3, 0, 0, 0, 0],
    ['extensions/cc-shinpaideshou-news-sitemap.xml', 3, 0, 0, 3, 0],
    ['extensions/cc-hebdenbridgetimes-articles-sitemap.xml', 74, 94, 6, 0, 0],
    ['extensions/cc-pagemaps-sitemap.xml', 2, 0, 0, 0, 0],
    ['extensions/adv-image_sitemap.xml', 2, 4, 0, 0, 0],
    ['extensions/adv-video_sitemap.xml', 6, 0, 6, 0, 0],
    ['extensions/adv-news_sitemap.xml', 6, 5, 0, 6, 0],
    ['extensions/sm-video.xml', 1, 0, 1, 0, 0],
    ['extensions/usp-google-news.xml', 2, 0, 0, 2, 0],
    ['extensions/usp-google-image.xml', 2, 3, 0, 0, 0],
    ['extensions/kt-google.image.sample.xml', 2, 3, 0, 0, 0],
    ['extensions/kt-google.news.sample.xml', 1, 0, 0, 1, 0],
    ['extensions/kt-google.video.sample.xml', 1, 0, 2, 0, 0],
    ['extensions/kt-yoast.com-post-sitemap2-images.xml', 66, 263, 0, 0, 0],
    ['extensions/webignition-sitemap.with-images.xml', 3, 3, 0, 0, 0],
  ])(
    '%s: %i URLs, %i images, %i videos, %i news, %i alternates',
    async (file, count, images, videos, news, alternates) => {
      const entries = await urlsOf(file);
      expect(entries).toHaveLength(count);
      expect([
        sum(entries, 'images'),
        sum(entries, 'videos'),
        sum(entries, 'news'),
        sum(entries, 'alternates'),
      ]).toEqual([images, videos, news, alternates]);
    },
  );

  it('counts images per URL (kt-google.image.sample: 2 then 1; yoast: 1 then 7)', async () => {
    expect((await urlsOf('extensions/kt-google.image.sample.xml')).map((entry) => entry.images)).toEqual([
      2, 1,
    ]);
    const yoast = await urlsOf('extensions/kt-yoast.com-post-sitemap2-images.xml');
    expect(yoast.slice(0, 2).map((entry) => entry.images)).toEqual([1, 7]);
  });

  it('does not take image locs as page URLs (webignition with-images)', async () => {
    const entries = await urlsOf('extensions/webignition-sitemap.with-images.xml');
    expect(entries.every((entry) => !/\.(jpe?g|png|gif)$/i.test(entry.loc))).toBe(true);
  });

  it('trims the padded NYT loc (adv-news_sitemap)', async () => {
    const entries = await urlsOf('extensions/adv-news_sitemap.xml');
    expect(entries.every((entry) => entry.loc === entry.loc.trim())).toBe(true);
  });

  it.each([['extensions/sm-alltags.xml'], ['extensions/sm-alltags.cdata.xml']])(
    '%s equals sm-alltags.expected.json',
    async (file) => {
      const expected = JSON.parse(readFixture('extensions/sm-alltags.expected.json').toString('utf8')) as {
        urls: {
          url: string;
          changefreq?: string;
          priority?: number;
          lastmod?: string;
          img?: unknown[];
          video?: unknown[];
          news?: unknown;
          links?: unknown[];
        }[];
      };
      const entries = await urlsOf(file);
      expect(
        entries.map((entry) => ({
          url: entry.loc,
          changefreq: entry.changefreq ?? undefined,
          priority: entry.priority ?? undefined,
          lastmod: entry.lastmod?.toISOString(),
          images: entry.images,
          videos: entry.videos,
          news: entry.news,
          alternates: entry.alternates,
        })),
      ).toEqual(
        expected.urls.map((url) => ({
          url: url.url,
          changefreq: url.changefreq,
          priority: url.priority,
          lastmod: url.lastmod,
          images: url.img?.length ?? 0,
          videos: url.video?.length ?? 0,
          news: url.news ? 1 : 0,
          alternates: url.links?.length ?? 0,
        })),
      );
    },
  );

  // Policy: a <sitemap> inside a urlset is yielded as a child-sitemap entry (the tree walker may
  // follow it) with one 'mixed_entries' warning, since search engines do not accept the mix.
  it('yields the <sitemap> nested in a urlset as a child entry with a warning (tra-sitemap-hreflang)', async () => {
    const result = await collectFixture('extensions/tra-sitemap-hreflang.xml');
    const pages = result.entries.filter((entry): entry is SitemapUrlEntry => entry.type === 'url');
    expect(pages.map((entry) => entry.alternates)).toEqual([3, 3, 3]);
    expect(result.entries[3]).toMatchObject({
      type: 'sitemap',
      loc: 'http://www.example.com/sitemap2.xml.gz',
    });
    expect(warningCodes(result)).toEqual(['mixed_entries']);
  });

  it('counts one alternate per URL in the trailing-slash namespace (usp-hreflang)', async () => {
    const result = await collectFixture('extensions/usp-hreflang.xml');
    expect((result.entries as SitemapUrlEntry[]).map((entry) => entry.alternates)).toEqual([1, 1]);
    expect(locs(result)).toHaveLength(2);
  });
});
