import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@/lib/test-support/fixtures';
import {
  bytesSource,
  collect,
  collectFixture,
  gzip,
  locs,
  urlset,
  warningCodes,
} from '@/lib/test-support/sitemap-sources';
import { newParseStats, parseSitemap, parseSitemapBatches } from './parse';
import type { SitemapUrlEntry } from './types';

const FOLDERS = ['xml', 'text', 'gzip', 'index', 'index/aafeher-minisite', 'extensions', 'malformed'];
const fixtureFiles = FOLDERS.flatMap((folder) =>
  readdirSync(fixturePath(folder), { withFileTypes: true })
    .filter((entry) => entry.isFile() && !/golden|expected/.test(entry.name))
    .map((entry) => `${folder}/${entry.name}`),
);

describe('chunk boundaries', () => {
  it.each(fixtureFiles.map((file) => [file]))('%s reads the same in 7-byte chunks', async (file) => {
    const whole = await collectFixture(file, { maxUncompressedBytes: 10_000_000 });
    const tiny = await collectFixture(file, { maxUncompressedBytes: 10_000_000, chunkSize: 7 });
    expect(tiny.entries).toEqual(whole.entries);
    // A size cap stops at a chunk-dependent point, so only the warning codes must agree then.
    if (whole.error?.code === 'too_large') expect(warningCodes(tiny)).toEqual(warningCodes(whole));
    else expect(tiny.stats.warnings).toEqual(whole.stats.warnings);
    expect(tiny.error?.code).toBe(whole.error?.code);
    expect(tiny.error?.line).toBe(whole.error?.line);
    expect(tiny.stats.kind).toBe(whole.stats.kind);
  });

  it('decodes multi-byte UTF-8 split at every possible offset', async () => {
    const loc = 'https://x.example/café/日本語/😀?q=ü';
    const xml = urlset(`<url><loc>${loc}</loc><lastmod>2024-02-29</lastmod></url>`);
    for (const chunkSize of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const result = await collect(xml, { chunkSize });
      expect(locs(result)).toEqual([loc]);
    }
    const text = await collect(`${loc}\n${loc}/2`, { chunkSize: 3 });
    expect(locs(text)).toEqual([loc, `${loc}/2`]);
  });

  it('yields one batch per input chunk, and parseSitemap yields the same entries one by one', async () => {
    const xml = urlset(5_000);
    const batched = await collect(xml, { chunkSize: 16 * 1024 });
    expect(batched.batches).toBeGreaterThan(5);
    const single = [];
    const stats = newParseStats();
    for await (const entry of parseSitemap(bytesSource(xml, 16 * 1024), stats)) single.push(entry);
    expect(single).toEqual(batched.entries);
    expect(stats.entries).toBe(5_000);
  });
});

describe('XML details', () => {
  it('decodes CDATA, entity-escaped and numeric-reference locs', async () => {
    const result = await collect(
      urlset(
        [
          '<url><loc><![CDATA[https://x.example/?a=1&b=2]]></loc></url>',
          '<url><loc>https://x.example/?a=1&amp;b=&lt;2&gt;&#x41;&#66;</loc></url>',
          '<url><loc>\n   https://x.example/spaced   \n</loc></url>',
        ].join('\n'),
      ),
    );
    expect(locs(result)).toEqual([
      'https://x.example/?a=1&b=2',
      'https://x.example/?a=1&b=<2>AB',
      'https://x.example/spaced',
    ]);
  });

  it('matches prefixed sitemap elements by local name', async () => {
    const xml = `<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://x.example/1</s:loc><s:priority>0.4</s:priority></s:url></s:urlset>`;
    const result = await collect(xml);
    expect(result.entries).toEqual([
      expect.objectContaining({ loc: 'https://x.example/1', priority: 0.4, line: 1 }),
    ]);
    expect(result.stats.warnings).toEqual([]);
  });

  it('warns once per distinct unknown element name and ignores foreign-namespace extensions', async () => {
    const body = [1, 2, 3]
      .map(
        (n) =>
          `<url><loc>https://x.example/${n}</loc><foo>x</foo><bar/><pm:PageMap xmlns:pm="urn:pm"/></url>`,
      )
      .join('\n');
    const result = await collect(urlset(`<foo/>\n${body}`));
    expect(result.entries).toHaveLength(3);
    expect(result.stats.warnings.map((warning) => [warning.code, warning.message])).toEqual([
      ['unknown_element', 'ignored unknown element <foo>'],
      ['unknown_element', 'ignored unknown element <bar>'],
    ]);
  });

  it('tolerates an undeclared image: prefix, counting the image and warning once', async () => {
    const body =
      '<url><loc>https://x.example/1</loc><image:image><image:loc>https://x.example/a.jpg</image:loc></image:image><image:image/></url>';
    const result = await collect(urlset(body));
    expect((result.entries[0] as SitemapUrlEntry).images).toBe(2);
    expect(warningCodes(result)).toEqual(['unbound_prefix']);
  });

  it('skips entries without <loc> in one missing_loc warning with the count and first line', async () => {
    const body =
      '<url><loc>https://x.example/1</loc></url>\n<url><lastmod>2024-01-01</lastmod></url>\n<url><loc> </loc></url>\n<url/>';
    const result = await collect(urlset(body));
    expect(locs(result)).toEqual(['https://x.example/1']);
    expect(result.stats.warnings).toEqual([
      {
        code: 'missing_loc',
        line: 4,
        message: '3 entries have no <loc> (or an empty one) and were skipped, first at line 4',
      },
    ]);
  });

  it('ignores junk after the root element with one warning', async () => {
    const xml = `${urlset(2)}<br />\nWarning: Cannot modify header information in <b>x.php</b>\n<url><loc>https://x.example/junk</loc></url>`;
    const result = await collect(xml, { chunkSize: 16 });
    expect(result.error).toBeNull();
    expect(locs(result)).toEqual(['https://example.com/p/1', 'https://example.com/p/2']);
    expect(warningCodes(result)).toEqual(['content_after_root']);
  });

  it('keeps invalid lastmod and priority as null without failing', async () => {
    const body =
      '<url><loc>https://x.example/1</loc><lastmod>yesterday</lastmod><priority>high</priority><changefreq>daily</changefreq></url>';
    const result = await collect(urlset(body));
    expect(result.entries[0]).toMatchObject({
      lastmodRaw: 'yesterday',
      lastmod: null,
      priority: null,
      changefreq: 'daily',
    });
  });
});

describe('partial results and protocol limits', () => {
  it('yields the complete entries before a truncated document, then xml_malformed with a position', async () => {
    const xml = urlset(1_000);
    const cut = xml.slice(0, xml.indexOf('<url><loc>https://example.com/p/801<') + 25);
    const result = await collect(cut, { chunkSize: 1024 });
    expect(result.entries).toHaveLength(800);
    expect(result.error?.code).toBe('xml_malformed');
    expect(result.error?.message).toMatch(/^line 803, column \d+: unexpected end of file/);
    expect(result.stats.entries).toBe(800);
  });

  it('flags 50,001 entries as over the protocol limit but reads them all', async () => {
    const result = await collect(urlset(50_001));
    expect(result.entries).toHaveLength(50_001);
    expect(warningCodes(result)).toEqual(['over_protocol_limit']);
  });

  it('flags a file over 50 MiB uncompressed even with few entries', async () => {
    const padding = `<!--${' '.repeat(52_428_800)}-->`;
    const result = await collect(gzip(urlset(`${padding}<url><loc>https://x.example/1</loc></url>`)));
    expect(result.entries).toHaveLength(1);
    expect(warningCodes(result)).toEqual(['over_protocol_limit']);
  });
});

describe('source handling', () => {
  it.each([
    ['plain', false],
    ['gzip', true],
  ])('passes a failing %s source error through unchanged, after earlier entries', async (_name, zipped) => {
    const data = Buffer.from(zipped ? gzip(urlset(20_000)) : urlset(20_000));
    const boom = new Error('socket hang up');
    async function* failing() {
      yield data.subarray(0, Math.floor(data.length / 2));
      throw boom;
    }
    const stats = newParseStats();
    const seen: string[] = [];
    await expect(async () => {
      for await (const batch of parseSitemapBatches(failing(), stats))
        seen.push(...batch.map((entry) => entry.loc));
    }).rejects.toBe(boom);
    expect(seen.length).toBeGreaterThan(0);
  });

  it.each([
    ['plain', false],
    ['gzip', true],
  ])('releases a %s source when the consumer stops early', async (_name, zipped) => {
    const data = Buffer.from(zipped ? gzip(urlset(50_000)) : urlset(50_000));
    let released = false;
    async function* source() {
      try {
        for (let i = 0; i < data.length; i += 4096) yield data.subarray(i, i + 4096);
      } finally {
        released = true;
      }
    }
    for await (const _batch of parseSitemapBatches(source(), newParseStats())) break;
    // A gzip source is released when the decompressor is destroyed, a tick or two later.
    await expect.poll(() => released).toBe(true);
  });
});
