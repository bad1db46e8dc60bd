import { createReadStream } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '@/lib/test-support/fixtures';
import { detectCrawlFormat, newCrawlReport, type ReadCrawlOptions, readCrawlBatches } from './read';
import type { CrawlRow } from './types';

async function readFile(relative: string, options: ReadCrawlOptions = {}) {
  const report = newCrawlReport();
  const rows: CrawlRow[] = [];
  const source = createReadStream(fixturePath(relative), { highWaterMark: 16_384 });
  for await (const batch of readCrawlBatches(source, report, { fileName: relative, ...options }))
    rows.push(...batch);
  return { rows, report };
}

function countBy<T>(items: T[], key: (item: T) => unknown): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const name = String(key(item));
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

const host = (url: string | null) => (url === null ? null : new URL(url).hostname);

describe('Screaming Frog internal_all fixtures (MANIFEST counts)', () => {
  it.each([
    ['sf-internal_all-ingyro-domaincom.csv', 137, 84, { 200: 136, 0: 1 }, 0, 1],
    ['sf-internal_all-squareone.ca.csv', 318, 63, { 200: 307, 301: 9, 302: 2 }, 1, 0],
    ['sf-internal_all-kerkarmedia.com.csv', 525, 72, { 200: 466, 0: 47, 301: 7, 404: 5 }, 3, 47],
    ['sf-internal_all-contractorwebsitetemplate.csv', 145, 72, { 200: 135, 404: 5, 429: 4, 301: 1 }, 0, 0],
    ['recon-ayrshire-internal_all.csv', 58, 72, { 200: 39, 301: 19 }, 0, 0],
  ])('%s: %i rows × %i columns', async (file, rowCount, columnCount, statuses, noindex, blocked) => {
    const { rows, report } = await readFile(`crawl-exports/${file}`);
    expect(report.format).toBe('screaming-frog');
    expect(report.rows).toBe(rowCount);
    expect(report.rejected).toBe(0);
    expect(rows).toHaveLength(rowCount);
    expect(countBy(rows, (row) => row.status)).toEqual(Object.fromEntries(Object.entries(statuses)));
    expect(rows.filter((row) => row.noindex)).toHaveLength(noindex);
    expect(rows.filter((row) => row.blockedByRobots)).toHaveLength(blocked);
    const usedColumns = new Set(
      Object.values(report.mappedColumns).flatMap((columns) => columns.split(' + ')),
    );
    expect(usedColumns.size + report.unmappedColumns.length).toBe(columnCount);
    expect(rows[0]?.url.startsWith('https://')).toBe(true);
    expect(rows.every((row) => row.crawledAt instanceof Date)).toBe(true);
  });

  it('ingyro: the Canonicalised home page and the robots-blocked page are non-indexable', async () => {
    const { rows } = await readFile('crawl-exports/sf-internal_all-ingyro-domaincom.csv');
    expect(rows.filter((row) => row.indexable === false).map((row) => row.url)).toEqual([
      'https://www.domain.com/',
      'https://www.domain.com/search/',
    ]);
    expect(rows.find((row) => row.status === 0)).toMatchObject({
      blockedByRobots: true,
      line: expect.any(Number),
    });
  });

  it('squareone (BOM, CRLF): 11 redirects carry their target, 1 noindex page', async () => {
    const { rows } = await readFile('crawl-exports/sf-internal_all-squareone.ca.csv');
    expect(rows.filter((row) => row.redirectUrl !== null)).toHaveLength(11);
    expect(rows.filter((row) => row.noindex).map((row) => row.indexable)).toEqual([false]);
    expect(rows.at(-1)?.line).toBe(319);
    expect(rows[1]?.crawledAt).toEqual(new Date('2023-05-24T14:50:54Z'));
  });

  it('kerkarmedia: noindex from Indexability Status, Meta Robots 1 and X-Robots-Tag 1', async () => {
    const { rows } = await readFile('crawl-exports/sf-internal_all-kerkarmedia.com.csv');
    const blocked = rows.filter((row) => row.blockedByRobots);
    expect(blocked.every((row) => row.status === 0 && row.indexable === false)).toBe(true);
    expect(rows.filter((row) => row.status === 301 && row.redirectUrl !== null)).toHaveLength(7);
  });

  it('R1 ayrshire: 19 www URLs redirect to the apex, 29 HTML pages canonicalise back to www', async () => {
    const { rows } = await readFile('crawl-exports/recon-ayrshire-internal_all.csv');
    const redirects = rows.filter((row) => row.status === 301);
    expect(redirects).toHaveLength(19);
    expect(new Set(redirects.map((row) => host(row.url)))).toEqual(new Set(['www.ayrshirefencinggroup.com']));
    expect(new Set(redirects.map((row) => host(row.redirectUrl)))).toEqual(
      new Set(['ayrshirefencinggroup.com']),
    );
    const htmlPages = rows.filter((row) => row.status === 200 && row.contentType?.startsWith('text/html'));
    expect(htmlPages).toHaveLength(29);
    expect(new Set(htmlPages.map((row) => host(row.canonical)))).toEqual(
      new Set(['www.ayrshirefencinggroup.com']),
    );
    expect(htmlPages.every((row) => row.indexable === false)).toBe(true);
  });

  it('R1 links_all (no Status Code column) is refused: every page would read as "no response"', async () => {
    // Before, its 39 rows imported with no status, and the reconcile pruned each matched page as no_response.
    const error = await readFile('crawl-exports/recon-ayrshire-links_all.csv').catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'missing_status' });
    expect((error as Error).message).toMatch(
      /no Status Code column.*Links report.*Internal > All \(internal_all\.csv\)/,
    );
  });
});

describe('Screaming Frog all_inlinks edge lists are refused, naming the export to use', () => {
  // Before, a column map naming Destination imported every link target (external ones included) as a
  // crawled page: YouTube, maps and social URLs reached the add list.
  it.each([
    ['sf-all_inlinks-ecotechlab.csv', {}],
    ['sf-all_inlinks-ecotechlab.csv', { columnMap: { url: 'Destination' } }],
    ['sf-all_inlinks-ecotechlab.csv', { columnMap: { url: 'Source' } }],
    // The legacy export's "All Inlinks" banner line is skipped before its header is read.
    ['sf-all_inlinks-legacy-3dids-preamble.csv', { columnMap: { url: 'Destination' } }],
  ] as [string, ReadCrawlOptions][])('%s %o', async (file, options) => {
    const error = await readFile(`crawl-exports/${file}`, options).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'edge_list' });
    expect((error as Error).message).toMatch(/Source and Destination.*Internal > All \(internal_all\.csv\)/);
  });
});

describe('Ahrefs site-audit exports (UTF-16LE, TAB-separated, named .csv)', () => {
  it('3xx report: 74 sitemap URLs, all 308, pointing at 73 distinct targets', async () => {
    const { rows, report } = await readFile(
      'crawl-exports/ahrefs-cowboykimono-3xx-redirect-in-site.utf16le.tsv.csv',
    );
    expect(report.format).toBe('csv');
    expect(rows).toHaveLength(74);
    expect(rows.every((row) => row.status === 308)).toBe(true);
    expect(new Set(rows.map((row) => row.redirectUrl)).size).toBe(73);
    expect(report.mappedColumns).toMatchObject({
      url: 'URL',
      status: 'HTTP status code',
      redirectUrl: 'Redirect URL',
    });
  });

  it('404 report: 73 rows, all 404 and non-indexable', async () => {
    const { rows } = await readFile('crawl-exports/ahrefs-cowboykimono-404-page.utf16le.tsv.csv');
    expect(rows).toHaveLength(73);
    expect(rows.every((row) => row.status === 404 && row.indexable === false)).toBe(true);
  });
});

describe('detectCrawlFormat', () => {
  it.each([
    ['{"url":"https://a.com/"}\n', undefined, 'jsonl'],
    ['\n  {"url":"https://a.com/"}', undefined, 'jsonl'],
    ['\uFEFF"Address","Content Type","Status Code"\n', undefined, 'screaming-frog'],
    ['Internal - All\nAddress,Status Code,Status\n', undefined, 'screaming-frog'],
    ['"Address","Indexability","Indexability Status"\n', undefined, 'screaming-frog'],
    ['"Type","Source","Destination","Status Code"\n', undefined, 'csv'],
    ['url,status\nhttps://a.com/,200\n', 'crawl.jsonl', 'csv'],
    ['Address\tStatus Code\n', undefined, 'screaming-frog'],
    ['garbage first line\n', 'crawl.jsonl.gz', 'jsonl'],
    ['url;status\n', 'export.csv', 'csv'],
  ])('%j (%s) → %s', (head, fileName, expected) => {
    expect(detectCrawlFormat(head, fileName)).toBe(expected);
  });

  it('lets an explicit format win over detection', async () => {
    const report = newCrawlReport();
    const source = (async function* () {
      yield Buffer.from('Address,Status Code\nhttps://a.com/,200\n');
    })();
    const batches = [];
    for await (const batch of readCrawlBatches(source, report, { format: 'csv' })) batches.push(batch);
    expect(report.format).toBe('csv');
    expect(batches.flat()).toHaveLength(1);
  });
});

describe('reading the bytes', () => {
  async function failure(bytes: Uint8Array, options: ReadCrawlOptions = {}) {
    const report = newCrawlReport();
    try {
      const source = (async function* () {
        yield bytes;
      })();
      for await (const _ of readCrawlBatches(source, report, options)) {
        // drain
      }
    } catch (error) {
      return error as Error & { code: string };
    }
    return null;
  }

  it.each([
    ['an empty file', '', 'empty_file'],
    ['only blank lines', '\n \r\n\t\n', 'empty_file'],
    ['an XML sitemap', '<?xml version="1.0"?><urlset></urlset>', 'unsupported_format'],
    ['an HTML page', '<!DOCTYPE html><html></html>', 'unsupported_format'],
    ['a JSON array', '[{"url":"https://a.com/"}]', 'unsupported_format'],
  ])('refuses %s', async (_, text, code) => {
    expect(await failure(Buffer.from(text))).toMatchObject({ code });
  });

  it('caps the uncompressed size: the scrapy gzip bomb (11.5 MB) against a 10 MB limit', async () => {
    // As JSONL every line is a bad row, so only the cap can stop the read.
    const bomb = readFixture('gzip/scrapy-bomb-gzip.bin');
    const error = await failure(bomb, { maxBytes: 10_000_000, format: 'jsonl', fileName: 'crawl.jsonl.gz' });
    expect(error).toMatchObject({
      code: 'too_large',
      message:
        'crawl.jsonl.gz inflates past the 9.5 MiB of uncompressed data a crawl export may hold (CRAWL_MAX_INFLATED_BYTES); split it or raise the limit.',
    });
  });

  it('caps plain files too', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `{"url":"https://a.com/${i}"}`).join('\n');
    expect(await failure(Buffer.from(lines), { maxBytes: 1000 })).toMatchObject({ code: 'too_large' });
  });

  it('reports a gzip file with plain text after the magic bytes as corrupt', async () => {
    const error = await failure(readFixture('index/aafeher-minisite/corrupted.gz'));
    expect(error).toMatchObject({ code: 'corrupt_gzip' });
  });

  it('reports a truncated gzip as corrupt', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `{"url":"https://a.com/${i}","status":200}`).join(
      '\n',
    );
    const gzipped = gzipSync(Buffer.from(lines));
    const error = await failure(gzipped.subarray(0, gzipped.length - 20));
    expect(error).toMatchObject({ code: 'corrupt_gzip' });
  });

  it.each([false, true])('closes the source when the caller stops early (gzip: %s)', async (isGzip) => {
    const lines = Array.from({ length: 12_000 }, (_, i) => `{"url":"https://a.com/${i}"}`).join('\n');
    const bytes = isGzip ? gzipSync(Buffer.from(lines)) : Buffer.from(lines);
    let isClosed = false;
    const source = (async function* () {
      try {
        for (let start = 0; start < bytes.length; start += 1000) yield bytes.subarray(start, start + 1000);
      } finally {
        isClosed = true;
      }
    })();
    for await (const batch of readCrawlBatches(source, newCrawlReport())) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    expect(isClosed).toBe(true);
  });
});
