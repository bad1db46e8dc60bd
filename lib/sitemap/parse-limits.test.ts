// Hostile inputs bounded per entry and per file: over-long locations and fields are
// refused without being buffered whole, deep nesting fails the file fast, and non-http(s)
// locations are refused and counted.
import { describe, expect, it } from 'vitest';
import { collect, locs, urlset } from '@/lib/test-support/sitemap-sources';
import { newParseStats } from './parse';
import { MAX_MARKUP_CHARS, XmlSitemapReader } from './xml-reader';

const good = (i: number) => `<url><loc>https://example.com/ok/${i}</loc></url>`;
const warning = (result: Awaited<ReturnType<typeof collect>>, code: string) =>
  result.stats.warnings.find((w) => w.code === code);

describe('location length (SITEMAP_MAX_LOC_CHARS)', () => {
  it('refuses a 10 MB <loc> as that entry alone, counted with a bounded example', async () => {
    const huge = `https://example.com/${'a'.repeat(10 * 1024 * 1024)}`;
    const result = await collect(urlset(`${good(1)}\n<url><loc>${huge}</loc></url>\n${good(2)}`));
    expect(result.error).toBeNull();
    expect(locs(result)).toEqual(['https://example.com/ok/1', 'https://example.com/ok/2']);
    const refused = warning(result, 'loc_too_long');
    expect(refused).toMatchObject({ count: 1, line: 4, examples: [{ position: 2, line: 4 }] });
    expect(refused?.examples?.[0]?.prefix.length).toBeLessThanOrEqual(101);
    expect(refused?.message).toContain('longer than 2,048 characters');
    expect(JSON.stringify(result.stats.warnings).length).toBeLessThan(2000);
  });

  it('never holds much more than the limit while such a <loc> streams in', () => {
    const reader = new XmlSitemapReader(newParseStats(), 0, { maxLocChars: 2048, maxDepth: 100 });
    reader.write('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.example/');
    let most = 0;
    for (let i = 0; i < 200; i++) {
      reader.write('b'.repeat(64 * 1024));
      most = Math.max(most, reader.bufferedChars());
    }
    // The limit plus the trailing-space allowance, plus at most one slice saxes holds before a check.
    expect(most).toBeLessThanOrEqual(2048 + 1024 + 64 * 1024);
    reader.write('</loc></url></urlset>');
    reader.close();
    reader.flushWarnings();
    expect(reader.batch).toEqual([]);
  });

  it('accepts exactly the limit and refuses one character more; the limit is configurable', async () => {
    const at = (n: number) => `https://example.com/${'p'.repeat(n - 20)}`;
    expect(at(2048)).toHaveLength(2048);
    const body = `<url><loc>\n    ${at(2048)}\n  </loc></url><url><loc>${at(2049)}</loc></url>`;
    const result = await collect(urlset(body), { chunkSize: 1000 });
    expect(locs(result)).toEqual([at(2048)]);
    expect(warning(result, 'loc_too_long')?.count).toBe(1);
    const wider = await collect(urlset(body), { maxLocChars: 4096 });
    expect(locs(wider)).toHaveLength(2);
  });

  it('refuses long locations in CDATA, entity-escaped text, index children and bare <sitemap> text', async () => {
    const long = `https://example.com/${'c'.repeat(5000)}`;
    const urls = await collect(
      urlset(
        `<url><loc><![CDATA[${long}]]></loc></url><url><loc>${long.replace('c', '&amp;')}</loc></url>${good(3)}`,
      ),
      { chunkSize: 777 },
    );
    expect(locs(urls)).toEqual(['https://example.com/ok/3']);
    expect(warning(urls, 'loc_too_long')?.count).toBe(2);

    const index = await collect(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${long}</loc></sitemap><sitemap>${long}</sitemap><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
    );
    expect(locs(index)).toEqual(['https://example.com/s.xml']);
    expect(warning(index, 'loc_too_long')?.count).toBe(2);
  });

  it('refuses long RSS links, Atom hrefs and text-sitemap lines', async () => {
    const long = `https://example.com/${'r'.repeat(3000)}`;
    const rss = await collect(
      `<rss version="2.0"><channel><item><link>${long}</link></item><item><link>https://example.com/r</link></item></channel></rss>`,
    );
    expect(locs(rss)).toEqual(['https://example.com/r']);
    expect(warning(rss, 'loc_too_long')?.count).toBe(1);

    const atom = await collect(
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="${long}"/></entry><entry><link href="https://example.com/a"/></entry></feed>`,
    );
    expect(locs(atom)).toEqual(['https://example.com/a']);
    expect(warning(atom, 'loc_too_long')?.count).toBe(1);

    const text = await collect(
      `https://example.com/t1\n${long}${'r'.repeat(200_000)}\nhttps://example.com/t2\n`,
      {
        chunkSize: 4096,
      },
    );
    expect(locs(text)).toEqual(['https://example.com/t1', 'https://example.com/t2']);
    expect(warning(text, 'loc_too_long')).toMatchObject({ count: 1, line: 2 });
  });

  it('ignores an over-long <lastmod> (the entry is kept without it) and says so', async () => {
    const result = await collect(
      urlset(`<url><loc>https://example.com/l</loc><lastmod>${'9'.repeat(1_000_000)}</lastmod></url>`),
    );
    expect(locs(result)).toEqual(['https://example.com/l']);
    expect(result.entries[0]?.lastmodRaw).toBeNull();
    expect(warning(result, 'field_too_long')?.message).toMatch(/^1 value .* longer than 256 characters/);
  });

  it('drops long text nobody reads (image captions, comments) and keeps the file', async () => {
    const body = `<url><loc>https://example.com/i</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:caption>${'x'.repeat(3_000_000)}</image:caption></image:image></url><!-- ${'y'.repeat(3_000_000)} -->${good(2)}`;
    const result = await collect(urlset(body));
    expect(result.error).toBeNull();
    expect(locs(result)).toEqual(['https://example.com/i', 'https://example.com/ok/2']);
    expect(result.entries[0]).toMatchObject({ images: 1 });
  });

  it('fails the file on an absurd attribute value, keeping the entries before it', async () => {
    const result = await collect(
      urlset(
        `${good(1)}<url><loc>https://example.com/x</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="https://example.com/${'h'.repeat(MAX_MARKUP_CHARS * 4)}"/></url>`,
      ),
      { chunkSize: 16 * 1024 },
    );
    expect(result.error?.code).toBe('xml_token_too_long');
    expect(result.error?.message).toMatch(/^line 3, column \d+: an XML name, attribute value/);
    expect(locs(result)).toEqual(['https://example.com/ok/1']);
  });
});

describe('nesting depth', () => {
  const nested = (depth: number) => `${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}`;

  it('accepts 100 levels and fails a 101st with the code, line and column', async () => {
    // urlset + url + 98 = 100 levels.
    const ok = await collect(urlset(`<url><loc>https://example.com/d</loc>${nested(98)}</url>`));
    expect(ok.error).toBeNull();
    expect(locs(ok)).toEqual(['https://example.com/d']);
    const deep = await collect(
      urlset(`${good(1)}\n<url><loc>https://example.com/d</loc>${nested(99)}</url>`),
    );
    expect(deep.error).toMatchObject({ code: 'xml_too_deep', line: 4 });
    expect(deep.error?.message).toMatch(
      /^line 4, column \d+: XML elements are nested deeper than 100 levels$/,
    );
    expect(locs(deep)).toEqual(['https://example.com/ok/1']);
  });

  it('fails 100,000 nested elements at once instead of spending minutes on them', async () => {
    const started = performance.now();
    const result = await collect(urlset(`${good(1)}${nested(100_000)}`));
    const ms = performance.now() - started;
    expect(result.error?.code).toBe('xml_too_deep');
    expect(locs(result)).toEqual(['https://example.com/ok/1']);
    // Before the check this took 110 s (3.5 s at 20,000 levels); it is a few milliseconds now.
    expect(ms).toBeLessThan(1000);
  });

  it('honours a configured depth', async () => {
    const result = await collect(urlset(`<url><loc>https://example.com/d</loc>${nested(3)}</url>`), {
      maxXmlDepth: 4,
    });
    expect(result.error?.code).toBe('xml_too_deep');
  });
});

describe('non-http(s) locations', () => {
  it('refuses javascript:, data:, mailto: and obfuscated schemes, counted per file; http(s) and relative stay', async () => {
    const body = [
      '<url><loc>javascript:alert(1)</loc></url>',
      '<url><loc>data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;</loc></url>',
      '<url><loc>JaVa\tScRiPt:alert(2)</loc></url>',
      '<url><loc>mailto:a@example.com</loc></url>',
      '<url><loc>HTTPS://example.com/upper</loc></url>',
      '<url><loc>/relative/path</loc></url>',
      good(7),
    ].join('\n');
    const result = await collect(urlset(body));
    expect(locs(result)).toEqual(['HTTPS://example.com/upper', '/relative/path', 'https://example.com/ok/7']);
    const refused = warning(result, 'non_http_loc');
    expect(refused?.count).toBe(4);
    expect(refused?.examples?.map((e) => [e.position, e.prefix])).toEqual([
      [1, 'javascript:alert(1)'],
      [2, 'data:text/html,<script>alert(1)</script>'],
      [3, 'JaVa\tScRiPt:alert(2)'],
    ]);
  });

  it('refuses them as index children too, so nothing fetches them', async () => {
    const result = await collect(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>javascript:alert(1)</loc></sitemap><sitemap><loc>file:///etc/passwd</loc></sitemap><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
    );
    expect(locs(result)).toEqual(['https://example.com/s.xml']);
    expect(warning(result, 'non_http_loc')?.count).toBe(2);
  });

  it('refuses a javascript: RSS link', async () => {
    const result = await collect(
      '<rss version="2.0"><channel><item><link>javascript:alert(1)</link></item></channel></rss>',
    );
    expect(result.entries).toEqual([]);
    expect(warning(result, 'non_http_loc')?.count).toBe(1);
  });
});
