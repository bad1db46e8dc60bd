import type { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FileNamer, sectionStem } from './naming';
import { indexXml, type SetRow, type WriterOptions, writeSitemapSet } from './writer';

/** Writes the rows (in batches of 7) and returns each file's text, read as the zip would read it. */
async function build(rows: SetRow[], options: WriterOptions) {
  const bodies: { name: string; text: Promise<string> }[] = [];
  async function* batches() {
    for (let i = 0; i < rows.length; i += 7) yield rows.slice(i, i + 7);
  }
  const files = await writeSitemapSet(batches(), options, (name, body, isCompressed) => {
    const text = (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of body as Readable) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      return (isCompressed ? gunzipSync(bytes) : bytes).toString('utf8');
    })();
    bodies.push({ name, text });
  });
  return { files, texts: await Promise.all(bodies.map(async (b) => ({ name: b.name, text: await b.text }))) };
}

const row = (section: string, path: string, lastmod: string | null = null): SetRow => ({
  section,
  url: `https://shop.example/${path}`,
  lastmod,
});
const locsOf = (text: string) => [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

describe('writeSitemapSet', () => {
  it('closes a file at the URL limit and where the section changes, numbering per section', async () => {
    const rows = [
      row('', 'about'),
      row('', 'contact'),
      ...Array.from({ length: 23 }, (_, i) => row('products', `products/p-${String(i).padStart(2, '0')}`)),
      row('Products', 'Products/x/'),
    ];
    const { files, texts } = await build(rows, { maxUrls: 10, gzip: true });
    expect(files.map((f) => [f.name, f.urls])).toEqual([
      ['pages-sitemap-1.xml.gz', 2],
      ['products-sitemap-1.xml.gz', 10],
      ['products-sitemap-2.xml.gz', 10],
      ['products-sitemap-3.xml.gz', 3],
      // Another segment with the same stem continues the numbering: no file is overwritten.
      ['products-sitemap-4.xml.gz', 1],
    ]);
    expect(texts.flatMap((t) => locsOf(t.text))).toEqual(rows.map((r) => r.url));
    for (const { text } of texts) {
      expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns=')).toBe(true);
      expect(text.endsWith('</urlset>\n')).toBe(true);
    }
    expect(files.map((f) => f.bytes)).toEqual(texts.map((t) => Buffer.byteLength(t.text)));
  });

  it('closes a file before it would pass the byte limit', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => row('', `page-${i}-${'x'.repeat(100)}`));
    const { files, texts } = await build(rows, { maxUrls: 1000, gzip: false, maxBytes: 1500 });
    expect(files.length).toBeGreaterThan(2);
    for (const t of texts) expect(Buffer.byteLength(t.text)).toBeLessThanOrEqual(1500);
    expect(files.reduce((n, f) => n + f.urls, 0)).toBe(30);
    expect(files[0]?.name).toBe('pages-sitemap-1.xml');
  });

  it('escapes XML, percent-encodes spaces and non-ASCII, keeps lastmod, writes no priority', async () => {
    const { texts } = await build(
      [
        { section: '', url: 'https://a.example/?a=1&b=<2>', lastmod: '2026-03-01' },
        { section: '', url: 'https://a.example/caf\u00e9 menu', lastmod: null },
      ],
      { maxUrls: 10, gzip: false },
    );
    const text = texts[0]?.text ?? '';
    expect(text).toContain(
      '<url><loc>https://a.example/?a=1&amp;b=&lt;2&gt;</loc><lastmod>2026-03-01</lastmod></url>',
    );
    expect(text).toContain('<url><loc>https://a.example/caf%C3%A9%20menu</loc></url>');
    expect(text).not.toMatch(/priority|changefreq/);
  });

  it('writes nothing for an empty set, and an index of each file at the base', async () => {
    expect((await build([], { maxUrls: 10, gzip: true })).files).toEqual([]);
    const index = indexXml(
      [{ name: 'pages-sitemap-1.xml.gz', stem: 'pages', urls: 1, bytes: 1 }],
      'https://cdn.example/maps/',
    );
    expect(index).toContain('<sitemap><loc>https://cdn.example/maps/pages-sitemap-1.xml.gz</loc></sitemap>');
    expect(index).toMatch(
      /^<\?xml[^>]*>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
  });
});

describe('file names', () => {
  it.each([
    ['', 'pages'],
    ['products', 'products'],
    ['Blog%20Posts', 'blog-posts'],
    ['caf%C3%A9', 'cafe'],
    ['..%2F..%2Fetc', 'etc'],
    ['%E2%9C%93', 'section'],
    ['%zz', 'zz'],
    ['a'.repeat(80), 'a'.repeat(60)],
  ])('%s → %s', (segment, stem) => {
    expect(sectionStem(segment)).toBe(stem);
  });

  it('numbers each stem on its own', () => {
    const namer = new FileNamer(false);
    expect([namer.next('a').name, namer.next('').name, namer.next('A').name]).toEqual([
      'a-sitemap-1.xml',
      'pages-sitemap-1.xml',
      'a-sitemap-2.xml',
    ]);
  });
});
