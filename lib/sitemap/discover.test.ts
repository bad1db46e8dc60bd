import { describe, expect, it } from 'vitest';
import { classifySourceUrl, fallbackSitemapUrls } from './discover';

describe('classifySourceUrl', () => {
  it.each([
    ['https://example.com', 'site-root'],
    ['https://example.com/', 'site-root'],
    ['http://example.com:8080/', 'site-root'],
    ['https://example.com/robots.txt', 'robots'],
    ['https://example.com/ROBOTS.TXT', 'robots'],
    ['https://example.com/sitemap.xml', 'sitemap'],
    ['https://example.com/sitemap_index.xml.gz', 'sitemap'],
    ['https://example.com/blog/', 'sitemap'],
    ['https://example.com/?sitemap=1', 'sitemap'],
    ['https://example.com/not-robots.txt', 'sitemap'],
  ] as const)('%s → %s', (url, kind) => {
    expect(classifySourceUrl(url)).toBe(kind);
  });

  it('throws on a string that is not a URL', () => {
    expect(() => classifySourceUrl('example.com')).toThrow(TypeError);
  });
});

describe('fallbackSitemapUrls', () => {
  it('resolves the conventional locations against the origin, ignoring any path', () => {
    expect(fallbackSitemapUrls('https://Example.com/blog/page?x=1')).toEqual([
      'https://example.com/sitemap.xml',
      'https://example.com/sitemap_index.xml',
      'https://example.com/sitemap.txt',
    ]);
    expect(fallbackSitemapUrls('http://example.com:8080')).toEqual([
      'http://example.com:8080/sitemap.xml',
      'http://example.com:8080/sitemap_index.xml',
      'http://example.com:8080/sitemap.txt',
    ]);
  });
});
