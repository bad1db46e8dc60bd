import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { parseRobotsSitemaps } from './robots';

const ROBOTS_URL = 'https://www.example.com/robots.txt';
const read = (file: string) => parseRobotsSitemaps(readFixture(file), ROBOTS_URL);
const codes = (file: string) => read(file).notes.map((note) => note.code);

describe('parseRobotsSitemaps over the robots fixtures', () => {
  it.each([
    ['robots/adv-robots.txt', 1],
    ['robots/cc-extension-robots.txt', 1],
    ['robots/cc-format-errors-robots.txt', 1],
    ['robots/cc-relative-sitemap-robots.txt', 1],
    ['robots/cc-robots-with-utf8-bom.txt', 1],
    ['robots/cc-robots-with-utf16le-bom.txt', 1],
    ['robots/cc-robots-with-utf16be-bom.txt', 1],
    ['robots/cc-sitemap-robots-dedup.txt', 1],
    ['robots/cc-sitemap-robots.txt', 2],
    ['robots/cc-twitter.com-robots.txt', 0],
    ['robots/cc-wildcards-amazon.txt', 8],
    ['robots/cc-www.flot.com-robots.txt', 1],
    ['robots/firstserveseattle-robots-no-final-newline.txt', 1],
    ['robots/recon-ayrshire-robots-wrong-domain.txt', 1],
    ['robots/recon-dhmguide-robots.txt', 1],
    ['robots/recon-mikenelson-robots.txt', 1],
    ['robots/refinebio-robots-host-with-scheme.txt', 1],
    ['robots/squirrelscan-bad-robots.txt', 0],
    ['robots/squirrelscan-good-robots.txt', 2],
    ['robots/usp-robots-sitemap-key-variants.txt', 4],
    ['index/aafeher-minisite/robots-empty/robots.txt', 0],
    ['index/aafeher-minisite/robots-without-sitemap/robots.txt', 0],
    ['index/aafeher-minisite/robots-with-sitemapindex-2/robots.txt', 2],
  ])('%s declares %i sitemaps', (file, count) => {
    const { sitemaps } = read(file);
    expect(sitemaps).toHaveLength(count);
    expect(sitemaps.every((url) => /^https?:\/\//.test(url))).toBe(true);
  });

  it('reads the same sitemap from the UTF-8, UTF-16LE and UTF-16BE newsweek files', () => {
    for (const variant of ['utf8', 'utf16le', 'utf16be']) {
      expect(read(`robots/cc-robots-with-${variant}-bom.txt`).sitemaps).toEqual([
        'http://www.newsweek.com/sitemap_index.xml',
      ]);
    }
  });

  it('accepts every key variant Google accepts (usp)', () => {
    expect(read('robots/usp-robots-sitemap-key-variants.txt').sitemaps).toEqual([
      'https://example.org/sitemap.xml',
      'https://example.org/weirdly-named-sitemap.xml',
      'https://example.org/another-sitemap.xml',
      'https://example.org/and-another-sitemap.xml',
    ]);
  });

  it('ignores the bare URL line but notes it, and keeps URL case (cc-sitemap-robots)', () => {
    const result = read('robots/cc-sitemap-robots.txt');
    expect(result.sitemaps).toEqual([
      'http://domain.com/sitemap.xml',
      'http://domain.com/dir/MixedCased-sitemap.xml',
    ]);
    expect(result.notes).toEqual([expect.objectContaining({ code: 'bare_url_line', line: 8 })]);
  });

  it('resolves relative values against the robots URL with a note', () => {
    const result = read('robots/cc-relative-sitemap-robots.txt');
    expect(result.sitemaps).toEqual(['https://www.example.com/sitemap.xml']);
    expect(codes('robots/cc-relative-sitemap-robots.txt')).toEqual(['relative_sitemap']);
    expect(read('robots/cc-format-errors-robots.txt').sitemaps).toEqual([
      'https://www.example.com/sitemap.xml',
    ]);
  });

  it('de-duplicates repeated sitemaps, noting the repeat', () => {
    expect(read('robots/cc-sitemap-robots-dedup.txt').sitemaps).toEqual(['http://example.org/sitemap.xml']);
    expect(codes('robots/cc-sitemap-robots-dedup.txt')).toEqual(['duplicate_sitemap']);
  });

  it('keeps a cross-domain sitemap as declared (recon-ayrshire)', () => {
    expect(read('robots/recon-ayrshire-robots-wrong-domain.txt').sitemaps).toEqual([
      'https://glenhausgardenroom.com/sitemap.xml',
    ]);
  });
});

describe('parseRobotsSitemaps on crafted input', () => {
  const parse = (text: string) => parseRobotsSitemaps(new TextEncoder().encode(text), ROBOTS_URL);

  it('strips comments, handles CR-only line ends and odd spacing', () => {
    const result = parse(
      'Sitemap:https://a.example/1.xml # main\rSITEMAP   :   https://a.example/2.xml\r\n site_map: /3.xml',
    );
    expect(result.sitemaps).toEqual([
      'https://a.example/1.xml',
      'https://a.example/2.xml',
      'https://www.example.com/3.xml',
    ]);
  });

  it('skips unusable values with an invalid_sitemap note', () => {
    const result = parse(
      'Sitemap:\nSitemap: ftp://a.example/s.xml\nSitemap: https://a.example/a b.xml\nSitemap: javascript:alert(1)\n',
    );
    expect(result.sitemaps).toEqual([]);
    expect(result.notes.map((note) => [note.code, note.line])).toEqual([
      ['invalid_sitemap', 1],
      ['invalid_sitemap', 2],
      ['invalid_sitemap', 3],
      ['invalid_sitemap', 4],
    ]);
  });

  it('returns nothing for an empty body', () => {
    expect(parseRobotsSitemaps(new Uint8Array(0), ROBOTS_URL)).toEqual({ sitemaps: [], notes: [] });
  });
});
