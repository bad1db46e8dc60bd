import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { collect, collectFixture, locs, warningCodes } from '@/lib/test-support/sitemap-sources';

describe('plain-text sitemap fixtures', () => {
  it.each([
    ['text/cc-sitemap.txt', 2],
    ['text/cc-sitemap-with-bom.txt', 2],
    ['text/sm-cli-urls.txt', 2],
    ['text/webignition-sitemap.txt', 3],
    ['text/0xproject-governance-sitemap.txt', 3],
  ])('%s has %i URLs', async (file, count) => {
    const result = await collectFixture(file);
    expect(result.error).toBeNull();
    expect(result.entries).toHaveLength(count);
    expect(result.stats).toMatchObject({ kind: 'text', entries: count, warnings: [] });
  });

  it('keeps the BOM out of the first URL', async () => {
    const result = await collectFixture('text/cc-sitemap-with-bom.txt');
    expect(locs(result)[0]).toMatch(/^http/);
    expect(result.entries[0]?.line).toBe(1);
    expect(result.stats.bom).toBe(true);
  });

  it('notes a BOM inside gzip (the content, not the bytes as served), and none where there is none', async () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>';
    const withBom = gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]));
    const inside = await collect(withBom, { chunkSize: 1 });
    expect(inside.stats).toMatchObject({ gzip: true, bom: true, entries: 1 });
    const utf16 = await collect(
      gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])),
    );
    expect(utf16.stats).toMatchObject({ gzip: true, bom: true, entries: 1 });
    expect((await collect(gzipSync(Buffer.from(xml)))).stats.bom).toBe(false);
    expect((await collectFixture('text/cc-sitemap.txt')).stats.bom).toBe(false);
  });

  it('lists webignition URLs exactly, with line numbers and positions', async () => {
    const result = await collectFixture('text/webignition-sitemap.txt');
    expect(locs(result)).toEqual([1, 2, 3].map((n) => `http://example.com/txt/${n}`));
    expect(result.entries.map((entry) => [entry.position, entry.line])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
  });

  it('skips prose and blank lines in one non_url_lines warning (usp-plaintext-with-junk)', async () => {
    const result = await collectFixture('text/usp-plaintext-with-junk.txt');
    expect(result.entries).toHaveLength(2);
    expect(result.stats.warnings).toEqual([expect.objectContaining({ code: 'non_url_lines', line: 1 })]);
    expect(result.stats.warnings[0]?.message).toMatch(/^1 line is not an absolute http\(s\) URL/);
  });

  it('handles CRLF, lone CR, no final newline, indentation and junk lines', async () => {
    const text =
      '  https://a.example/1\r\n\r\nnot a url\r\nftp://b.example/x\rhttps://a.example/2\n\thttps://a.example/3';
    const result = await collect(text, { chunkSize: 3 });
    expect(locs(result)).toEqual(['https://a.example/1', 'https://a.example/2', 'https://a.example/3']);
    expect(result.entries.map((entry) => entry.line)).toEqual([1, 5, 6]);
    expect(result.stats.warnings).toEqual([
      expect.objectContaining({ code: 'non_url_lines', line: 3, message: expect.stringMatching(/^2 lines/) }),
    ]);
  });

  it('reads a large file with classic-Mac CR line ends in any chunking', async () => {
    const text = Array.from({ length: 5_000 }, (_, i) => `https://a.example/${i + 1}`).join('\r');
    for (const chunkSize of [1, 7, 4096]) {
      const result = await collect(text, { chunkSize });
      expect(result.entries).toHaveLength(5_000);
      expect(result.entries[4_999]).toMatchObject({ loc: 'https://a.example/5000', line: 5_000 });
    }
  });

  it('drops an absurdly long line without buffering it and keeps going', async () => {
    const text = `https://a.example/1\n${'x'.repeat(200_000)}\nhttps://a.example/2\n`;
    const result = await collect(text, { chunkSize: 4096 });
    expect(locs(result)).toEqual(['https://a.example/1', 'https://a.example/2']);
    expect(result.stats.warnings).toEqual([expect.objectContaining({ code: 'non_url_lines', line: 2 })]);
  });
});

describe('gzip fixtures (recognised by magic bytes only)', () => {
  it.each([
    ['gzip/cc-xmlSitemap.gz', 5, 'urlset'],
    ['gzip/cc-sitemap.txt.gz', 5, 'text'],
    ['gzip/adv-zipped_sitemap.xml.gz', 5, 'urlset'],
    ['gzip/tra-sitemaps.org-sitemap.xml.gz', 84, 'urlset'],
  ])('%s has %i URLs', async (file, count, kind) => {
    const result = await collectFixture(file);
    expect(result.error).toBeNull();
    expect(result.entries).toHaveLength(count);
    expect(result.stats).toMatchObject({ kind, gzip: true, compressedBytes: readFixture(file).length });
    expect(result.stats.uncompressedBytes).toBeGreaterThan(result.stats.compressedBytes);
  });

  it('parses a .gz name holding plain XML as XML (adv-regular_sitemap-not-actually-gzipped)', async () => {
    const result = await collectFixture('gzip/adv-regular_sitemap-not-actually-gzipped.xml.gz');
    const plain = await collectFixture('xml/adv-regular_sitemap.xml');
    expect(result.stats.gzip).toBe(false);
    expect(result.entries).toEqual(plain.entries);
  });

  it('refuses the scrapy decompression bomb with a 10,000,000 B limit', async () => {
    const result = await collectFixture('gzip/scrapy-bomb-gzip.bin', { maxUncompressedBytes: 10_000_000 });
    expect(result.error?.code).toBe('too_large');
    expect(result.error?.message).toContain('10,000,000 bytes');
    expect(result.stats.uncompressedBytes).toBeLessThanOrEqual(10_000_000 + 64 * 1024);
    expect(result.stats.uncompressedBytes).toBeLessThan(11_511_612);
  });

  it('reports the HTML page inside the CRC-broken gzip as not a sitemap (first problem in the stream)', async () => {
    const result = await collectFixture('gzip/scrapy-truncated-crc-error.gz');
    expect(result.error?.code).toBe('not_a_sitemap');
    expect(result.entries).toEqual([]);
  });

  it('reports the truncated gzip with a non-UTF-8 payload as invalid UTF-8', async () => {
    const result = await collectFixture('gzip/scrapy-unexpected-eof-truncated.gz');
    expect(result.error?.code).toBe('invalid_utf8');
    expect(result.entries).toEqual([]);
  });
});

describe('large fixtures', () => {
  it('reads exactly 50,000 URLs without an over_protocol_limit warning', async () => {
    const result = await collectFixture('large/breakroom-sitemap-50000-urls.xml');
    expect(result.entries).toHaveLength(50_000);
    expect(result.batches).toBeGreaterThan(1);
    expect(warningCodes(result)).toEqual([]);
  });

  it('reads refinebio sitemap-2: 12,641 entries, 12,523 unique', async () => {
    const result = await collectFixture('large/refinebio-sitemap-2.xml');
    expect(result.entries).toHaveLength(12_641);
    expect(new Set(locs(result)).size).toBe(12_523);
  });

  it('reads the gzipped refinebio sitemap-1: 36,005 unique URLs', async () => {
    const result = await collectFixture('large/refinebio-sitemap-1.xml.gz');
    expect(result.stats.gzip).toBe(true);
    expect(result.entries).toHaveLength(36_005);
    expect(new Set(locs(result)).size).toBe(36_005);
    expect(locs(result).filter((loc) => loc.includes('/experiments/'))).toHaveLength(36_000);
  });

  it('reads webignition 8,497 URLs', async () => {
    const result = await collectFixture('large/webignition-SitemapsOrgXmlWith8497Urls.xml');
    expect(result.entries).toHaveLength(8_497);
  });

  it('reads the roosterteeth text list: 21,753 lines, 21,752 unique (stray tabs kept as declared)', async () => {
    const result = await collectFixture('large/sm-perf-data-roosterteeth.txt');
    expect(result.entries).toHaveLength(21_753);
    expect(new Set(locs(result)).size).toBe(21_752);
    expect(locs(result)).toContain('https://roosterteeth.com/episode/video-game-vault-\tkid-icarus');
  });

  it('reads all 100,000 gzipped text URLs and flags the protocol limit', async () => {
    const result = await collectFixture('large/sm-medium-list-100k.txt.gz');
    expect(result.entries).toHaveLength(100_000);
    expect(locs(result)[99_999]).toBe('http://example.com/99999');
    expect(warningCodes(result)).toEqual(['over_protocol_limit']);
  });
});
