// What the reader keeps for the corrected set to write a <url> back as read: nothing more for a plain
// entry, every child in order (as XML) for any other, and the root's start tag.
import { describe, expect, it } from 'vitest';
import { collect } from '@/lib/test-support/sitemap-sources';
import type { SitemapUrlEntry } from './types';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

async function urls(body: string, root = `urlset ${NS}`, chunkSize?: number) {
  const name = root.split(' ')[0];
  const result = await collect(`<?xml version="1.0"?>\n<${root}>${body}</${name}>`, { chunkSize });
  expect(result.error).toBeNull();
  return { entries: result.entries as SitemapUrlEntry[], rootTag: result.stats.rootTag };
}

describe('the markup kept for the corrected set', () => {
  it('keeps nothing more for loc, lastmod, changefreq and priority once each, in order, plain', async () => {
    const { entries, rootTag } = await urls(
      '<url>\n  <loc> https://a.example/1 </loc>\n  <lastmod>2026-01-02</lastmod>\n  <changefreq>daily</changefreq>\n  <priority>0.8</priority>\n</url><url><loc>https://a.example/2</loc></url>',
    );
    expect(entries.map((e) => e.extra)).toEqual([null, null]);
    expect(rootTag).toBe(`urlset ${NS}`);
  });

  it.each([
    [
      'an extension',
      '<loc>https://a.example/</loc><image:image><image:loc>https://a.example/i.jpg</image:loc></image:image>',
    ],
    ['another order', '<lastmod>2026-01-02</lastmod><loc>https://a.example/</loc>'],
    [
      'a repeated field',
      '<loc>https://a.example/</loc><lastmod>2026-01-02</lastmod><lastmod>2026-01-03</lastmod>',
    ],
    ['an empty field', '<loc>https://a.example/</loc><lastmod></lastmod><priority>0.5</priority>'],
    ['a priority its number would not give back', '<loc>https://a.example/</loc><priority>1.0</priority>'],
    ['an attribute', '<loc>https://a.example/</loc><lastmod x="1">2026-01-02</lastmod>'],
  ])('serialises every child as read after %s', async (_, body) => {
    const root = `urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"`;
    for (const chunkSize of [undefined, 7]) {
      const { entries } = await urls(`<url>${body}</url>`, root, chunkSize);
      expect(entries[0]?.extra).toBe(body);
    }
  });

  it('escapes text and attributes, keeps CDATA as text, drops comments and blank layout', async () => {
    const { entries } = await urls(
      `<url><loc>https://a.example/?a=1&amp;b=2</loc>
         <xhtml:link rel="alternate" hreflang="de" href="https://a.example/de?a=1&amp;b=&quot;2&quot;"/>
         <!-- a comment -->
         <news:news><news:title><![CDATA[Tom & Jerry <3]]></news:title></news:news>
       </url>`,
      `urlset ${NS} xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"`,
    );
    expect(entries[0]?.extra).toBe(
      '<loc>https://a.example/?a=1&amp;b=2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de?a=1&amp;b=&quot;2&quot;"></xhtml:link><news:news><news:title>Tom &amp; Jerry &lt;3</news:title></news:news>',
    );
  });

  it('writes plain fields with the root prefix and keeps the prefixed root tag', async () => {
    const { entries, rootTag } = await urls(
      '<s:url><s:loc>https://a.example/</s:loc><s:changefreq>daily</s:changefreq></s:url>',
      's:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"',
    );
    expect(rootTag).toBe('s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(entries[0]?.extra).toBeNull();
    const { entries: mixed } = await urls(
      '<s:url><s:loc>https://a.example/</s:loc><x/></s:url>',
      's:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"',
    );
    expect(mixed[0]?.extra).toBe('<s:loc>https://a.example/</s:loc><x></x>');
  });
});
