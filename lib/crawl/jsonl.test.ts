import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { BATCH_SIZE } from './collector';
import { newCrawlReport, type ReadCrawlOptions, readCrawlBatches } from './read';
import { CrawlImportError, type CrawlRow } from './types';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

async function readAll(bytes: Uint8Array, chunkSize = 65_536, options: ReadCrawlOptions = {}) {
  const report = newCrawlReport();
  const rows: CrawlRow[] = [];
  const batchSizes: number[] = [];
  for await (const batch of readCrawlBatches(chunked(bytes, chunkSize), report, options)) {
    rows.push(...batch);
    batchSizes.push(batch.length);
  }
  return { rows, report, batchSizes };
}

const CRAFTED = [
  '{"url":"https://a.com/1","status":200,"canonical_url":"https://a.com/1","indexable":true,"crawled_at":"2026-05-28T12:57:52Z"}',
  '',
  '{"url":"https://a.com/2","status":"abc"}',
  '{"status":200}',
  '{not json',
  '[1,2]',
  '{"url":"/relative","status":200}',
  '{"url":"https://a.com/3","status":"301","redirect_url":"/3/","depth":"2","indexable":"false"}',
  '{"url":"https://a.com/4","status":200,"indexable":"maybe"}',
  '{"url":"https://a.com/5","status":200,"crawled_at":"yesterday","depth":-1}',
  '   \t',
  '{"url":"https://a.com/6","status":null,"blocked_by_robots":true,"noindex":true}',
  '{"url":"https://a.com/é","status":200,"indexable":false}',
].join('\n');

describe('JSONL crawl graph', () => {
  it('keeps valid rows, skips bad ones with exact line numbers and reasons', async () => {
    const { rows, report } = await readAll(Buffer.from(CRAFTED));
    expect(report.format).toBe('jsonl');
    expect(rows.map((row) => row.line)).toEqual([1, 8, 10, 12, 13]);
    expect(report.rows).toBe(5);
    expect(report.rejected).toBe(6);
    expect(report.rejections.map((rejection) => rejection.line)).toEqual([3, 4, 5, 6, 7, 9]);
    const reasons = report.rejections.map((rejection) => rejection.reason);
    expect(reasons[0]).toBe("status 'abc' is not a number");
    expect(reasons[1]).toBe('missing url');
    expect(reasons[2]).toMatch(/^invalid JSON: .*position 1/);
    expect(reasons[3]).toBe("expected a JSON object, found '[1,2]'");
    expect(reasons[4]).toBe("url '/relative' is not an absolute http(s) URL");
    expect(reasons[5]).toBe("indexable 'maybe' is not true or false");
  });

  it('maps the playbook fields', async () => {
    const { rows } = await readAll(Buffer.from(CRAFTED));
    expect(rows[0]).toEqual({
      line: 1,
      url: 'https://a.com/1',
      status: 200,
      canonical: 'https://a.com/1',
      indexable: true,
      noindex: false,
      blockedByRobots: false,
      crawledAt: new Date('2026-05-28T12:57:52Z'),
      depth: null,
      redirectUrl: null,
      contentType: null,
      inlinks: null,
      canonicalised: false,
    });
    expect(rows[1]).toMatchObject({
      status: 301,
      redirectUrl: 'https://a.com/3/',
      depth: 2,
      indexable: false,
    });
    expect(rows[3]).toMatchObject({ status: null, blockedByRobots: true, noindex: true, indexable: null });
    // indexable:false says nothing about why: it must not turn into a noindex.
    expect(rows[4]).toMatchObject({ url: 'https://a.com/é', indexable: false, noindex: false });
  });

  it('keeps a row whose optional values are unreadable and warns once per kind', async () => {
    const { rows, report } = await readAll(Buffer.from(CRAFTED));
    expect(rows[2]).toMatchObject({ line: 10, crawledAt: null, depth: null });
    const codes = report.warnings.map((warning) => warning.code).sort();
    expect(codes).toEqual(['invalid_crawled_at', 'invalid_depth']);
    expect(report.warnings.find((warning) => warning.code === 'invalid_depth')?.message).toBe(
      '1 row has an unreadable crawl depth, left empty (first at line 10: depth -1 is not a whole number).',
    );
  });

  it('reports the keys it read and the ones it ignored', async () => {
    const { report } = await readAll(Buffer.from('{"url":"https://a.com/","status":200,"title":"Home"}\n'));
    expect(report.mappedColumns).toEqual({ url: 'url', status: 'status' });
    expect(report.unmappedColumns).toEqual(['title']);
  });

  it.each([1, 5, 7, 64])('gives the same result when fed %i-byte chunks', async (size) => {
    const whole = await readAll(Buffer.from(CRAFTED));
    const pieces = await readAll(Buffer.from(CRAFTED), size);
    expect(pieces.rows).toEqual(whole.rows);
    expect(pieces.report).toEqual(whole.report);
  });

  it('reads CRLF line endings with the same lines', async () => {
    const whole = await readAll(Buffer.from(CRAFTED));
    const crlf = await readAll(Buffer.from(CRAFTED.replaceAll('\n', '\r\n')), 5);
    expect(crlf.rows).toEqual(whole.rows);
    expect(crlf.report.rejections).toEqual(whole.report.rejections);
  });

  it.each([1, 5])('reads gzip by its magic bytes, whatever the name, in %i-byte chunks', async (size) => {
    const whole = await readAll(Buffer.from(CRAFTED));
    const gzipped = await readAll(gzipSync(Buffer.from(CRAFTED)), size, { fileName: 'crawl.csv' });
    expect(gzipped.report.format).toBe('jsonl');
    expect(gzipped.rows).toEqual(whole.rows);
  });

  it('yields batches of BATCH_SIZE rows', async () => {
    const count = BATCH_SIZE * 2 + 123;
    const lines = Array.from({ length: count }, (_, i) => `{"url":"https://a.com/${i}","status":200}`);
    const { batchSizes, rows } = await readAll(Buffer.from(lines.join('\n')));
    expect(batchSizes).toEqual([BATCH_SIZE, BATCH_SIZE, 123]);
    expect(rows.at(-1)).toMatchObject({ line: count, url: `https://a.com/${count - 1}` });
  });

  it('keeps only the first 100 rejections but counts them all', async () => {
    const lines = ['{"url":"https://a.com/ok"}', ...Array.from({ length: 150 }, () => '{"status":200}')];
    const { report } = await readAll(Buffer.from(lines.join('\n')));
    expect(report.rejected).toBe(150);
    expect(report.rejections).toHaveLength(100);
    expect(report.rejections[99]).toEqual({ line: 101, reason: 'missing url' });
  });

  it('skips a line longer than 32 MiB as that row alone, without buffering it, and reads on', async () => {
    const cell = Buffer.alloc(60 * 1024 * 1024, 'x');
    const bytes = Buffer.concat([
      Buffer.from('{"url":"https://a.com/1"}\n{"url":"https://a.com/'),
      cell,
      Buffer.from('"}\n{"url":"https://a.com/3"}\n'),
      cell,
    ]);
    const { rows, report } = await readAll(bytes, 1024 * 1024);
    expect(rows.map((r) => [r.line, r.url])).toEqual([
      [1, 'https://a.com/1'],
      [3, 'https://a.com/3'],
    ]);
    expect(report.rejected).toBe(2);
    expect(report.rejections.map((r) => r.line)).toEqual([2, 4]);
    expect(report.rejections[0]?.reason).toMatch(/^the line is longer than 32 MiB/);
  });

  it('rejects a row whose URL is longer than the limit (SITEMAP_MAX_LOC_CHARS) and drops a long canonical', async () => {
    const long = `https://a.com/${'u'.repeat(3000)}`;
    const lines = [
      `{"url":"${long}"}`,
      `{"url":"https://a.com/ok","canonical_url":"${long}"}`,
      `{"url":"${long.slice(0, 2048)}"}`,
    ];
    const { rows, report } = await readAll(Buffer.from(lines.join('\n')));
    expect(rows.map((r) => [r.line, r.url.length, r.canonical])).toEqual([
      [2, 16, null],
      [3, 2048, null],
    ]);
    expect(report.rejections).toEqual([
      {
        line: 1,
        reason: expect.stringMatching(/^url 'https:\/\/a.com\/u+\.\.\.' is longer than 2,048 characters$/),
      },
    ]);
    expect(report.rejections[0]?.reason.length).toBeLessThan(400);
    const wider = await readAll(Buffer.from(lines.join('\n')), 65_536, { maxUrlChars: 4096 });
    expect(wider.rows).toHaveLength(3);
  });

  it('fails with no_valid_rows, quoting the first problems, when every line is bad', async () => {
    const report = newCrawlReport();
    const read = async () => {
      for await (const _ of readCrawlBatches(chunked(Buffer.from('{"status":200}\n{oops\n'), 100), report)) {
        // drain
      }
    };
    const error = await read().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CrawlImportError);
    expect(error).toMatchObject({ code: 'no_valid_rows' });
    expect((error as Error).message).toContain('line 1: missing url');
    expect(report.rejected).toBe(2);
  });
});

describe('advertools crawl output (crawl-exports/adv-crawlytics-nytimes.jl)', () => {
  const bytes = readFixture('crawl-exports/adv-crawlytics-nytimes.jl');

  it('reads the 28 crawled pages, one per line: 20 × 200 and 8 × 403, all unique', async () => {
    const { rows, report } = await readAll(bytes, 4096);
    expect(rows).toHaveLength(28);
    expect(rows.map((row) => row.line)).toEqual(Array.from({ length: 28 }, (_, i) => i + 1));
    expect(new Set(rows.map((row) => row.url)).size).toBe(28);
    expect(rows.filter((row) => row.status === 200)).toHaveLength(20);
    expect(rows.filter((row) => row.status === 403)).toHaveLength(8);
    expect(report.rejected).toBe(0);
    expect(report.mappedColumns).toMatchObject({
      url: 'url',
      canonical: 'canonical',
      crawledAt: 'crawl_time',
    });
    expect(report.unmappedColumns).toContain('redirect_urls');
  });

  it('imports each row as its final URL and says how many came through redirect chains', async () => {
    const { rows, report } = await readAll(bytes);
    // Line 1: https://nytimes.com → 301 → https://www.nytimes.com/ (200).
    expect(rows[0]).toMatchObject({ url: 'https://www.nytimes.com/', status: 200, redirectUrl: null });
    expect(report.warnings).toContainEqual({
      code: 'redirect_chains_not_imported',
      message:
        "18 rows were reached through redirects (27 redirecting URLs in advertools' redirect_urls). " +
        'Each row is imported as its final URL; the redirecting URLs are not imported.',
    });
  });

  it('resolves relative canonicals and reads epoch-millisecond crawl times', async () => {
    const { rows } = await readAll(bytes);
    const chinaStocks = rows.find((row) => row.url === 'https://cn.nytimes.com/topic/20150713/chinastocks/');
    expect(chinaStocks?.canonical).toBe('https://cn.nytimes.com/topic/20150713/chinastocks/');
    expect(rows[0]?.crawledAt).toEqual(new Date(1706266259000));
    expect(rows[0]?.contentType).toBe('text/html; charset=utf-8');
  });
});
