import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { newCrawlReport, type ReadCrawlOptions, readCrawlBatches } from './read';
import type { CrawlRow } from './types';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

async function readAll(input: string | Uint8Array, options: ReadCrawlOptions = {}, chunkSize = 65_536) {
  const bytes = typeof input === 'string' ? Buffer.from(input) : input;
  const report = newCrawlReport();
  const rows: CrawlRow[] = [];
  for await (const batch of readCrawlBatches(chunked(bytes, chunkSize), report, options)) rows.push(...batch);
  return { rows, report };
}

async function importError(input: string, options: ReadCrawlOptions = {}) {
  return readAll(input, options).then(
    () => null,
    (error: unknown) => error as Error & { code: string },
  );
}

const SF_HEADER =
  '"Address","Content Type","Status Code","Status","Indexability","Indexability Status","Meta Robots 1",' +
  '"X-Robots-Tag 1","Canonical Link Element 1","Crawl Depth","Redirect URL","Crawl Timestamp"';

const SF_BODY = [
  '"https://a.com/","text/html","200","OK","Indexable","","index, follow","","https://a.com/","0","","2026-05-28 12:57:52"',
  '"https://a.com/old","","301","Moved Permanently","Non-Indexable","Redirected","","","","1","/new","2026-05-28 12:57:53"',
  '"https://a.com/js.js","","0","Blocked by robots.txt","Non-Indexable","Blocked by robots.txt","","","","2","",""',
  '"https://a.com/private","text/html","200","OK","Non-Indexable","noindex","noindex, nofollow","","","1","","bad"',
  '"https://a.com/none","text/html","200","OK","Non-Indexable","","","googlebot: none","","1","",""',
  '"https://a.com/canon","text/html","200","OK","Non-Indexable","Canonicalised","","","/","1","",""',
];

describe('Screaming Frog CSV', () => {
  it('maps the SF columns, noindex sources, robots blocking and UTC timestamps', async () => {
    const { rows, report } = await readAll(`\uFEFF${SF_HEADER}\n${SF_BODY.join('\n')}\n`);
    expect(report.format).toBe('screaming-frog');
    expect(rows[0]).toEqual({
      line: 2,
      url: 'https://a.com/',
      status: 200,
      canonical: 'https://a.com/',
      indexable: true,
      noindex: false,
      blockedByRobots: false,
      crawledAt: new Date('2026-05-28T12:57:52Z'),
      depth: 0,
      redirectUrl: null,
      contentType: 'text/html',
      inlinks: null,
      canonicalised: false,
    });
    expect(rows[1]).toMatchObject({ status: 301, redirectUrl: 'https://a.com/new', indexable: false });
    expect(rows[2]).toMatchObject({ status: 0, blockedByRobots: true, noindex: false, crawledAt: null });
    expect(rows[3]).toMatchObject({ noindex: true, crawledAt: null });
    expect(rows[4]).toMatchObject({ noindex: true });
    expect(rows[5]).toMatchObject({ canonical: 'https://a.com/', noindex: false, indexable: false });
    expect(report.warnings).toEqual([
      {
        code: 'invalid_crawled_at',
        message:
          "1 row has an unreadable crawl time, left empty (first at line 5: time 'bad' is not a date).",
      },
    ]);
  });

  it.each([
    ['Internal - All', 'unquoted'],
    ['"All Inlinks"', 'quoted'],
  ])('skips a one-cell banner row %s (%s) and keeps physical line numbers', async (banner) => {
    const { rows, report } = await readAll(
      `${banner}\r\n${SF_HEADER}\r\n${SF_BODY.slice(0, 2).join('\r\n')}\r\n`,
    );
    expect(report.format).toBe('screaming-frog');
    expect(rows.map((row) => row.line)).toEqual([3, 4]);
    expect(report.warnings.map((warning) => warning.code)).toEqual(['banner_row_skipped']);
  });

  it('accepts version variants: Redirect URI, Content, unquoted LF', async () => {
    const csv = 'Address,Content,Status Code,Redirect URI\nhttps://a.com/x,text/html,302,https://a.com/y\n';
    const { rows, report } = await readAll(csv);
    expect(report.format).toBe('screaming-frog');
    expect(rows[0]).toMatchObject({ status: 302, redirectUrl: 'https://a.com/y', contentType: 'text/html' });
    expect(report.mappedColumns).toMatchObject({ redirectUrl: 'Redirect URI', contentType: 'Content' });
  });

  it('gives identical rows for 5-byte chunks (kerkarmedia fixture)', async () => {
    const bytes = readFixture('crawl-exports/sf-internal_all-kerkarmedia.com.csv');
    const whole = await readAll(bytes);
    const pieces = await readAll(bytes, {}, 5);
    expect(pieces.rows).toHaveLength(525);
    expect(pieces.rows).toEqual(whole.rows);
  });
});

describe('generic CSV', () => {
  it('uses obvious headers and lists the columns it ignored', async () => {
    const { rows, report } = await readAll(
      'URL,Status,Title,Canonical\nhttps://a.com/,200,Home,https://a.com/\n',
    );
    expect(report.format).toBe('csv');
    expect(rows[0]).toMatchObject({ url: 'https://a.com/', status: 200, canonical: 'https://a.com/' });
    expect(report.mappedColumns).toEqual({ url: 'URL', status: 'Status', canonical: 'Canonical' });
    expect(report.unmappedColumns).toEqual(['Title']);
  });

  it('follows a column map, by exact or loosely matching header names', async () => {
    const csv = 'Page,Code,When\nhttps://a.com/a,404,2026-01-02T03:04:05+01:00\n';
    const { rows, report } = await readAll(csv, {
      columnMap: { url: 'Page', status: 'code', crawledAt: 'When' },
    });
    expect(rows[0]).toMatchObject({ status: 404, crawledAt: new Date('2026-01-02T02:04:05Z') });
    expect(report.mappedColumns).toEqual({ url: 'Page', status: 'Code', crawledAt: 'When' });
  });

  it('fails with unmapped_url naming the headers when no URL column is known', async () => {
    const error = await importError('Type,Referrer,Target\nHyperlink,https://a.com/,https://a.com/b\n');
    expect(error).toMatchObject({ code: 'unmapped_url' });
    expect(error?.message).toContain('"Type", "Referrer", "Target"');
  });

  it('refuses a link export (Source and Destination columns) with edge_list, even with a column map', async () => {
    const text = 'Type,Source,Destination\nHyperlink,https://a.com/,https://www.youtube.com/x\n';
    expect(await importError(text)).toMatchObject({ code: 'edge_list' });
    expect(await importError(text, { columnMap: { url: 'Destination' } })).toMatchObject({
      code: 'edge_list',
    });
  });

  it('fails with unknown_column when the map names a missing column', async () => {
    const error = await importError('url,status\nhttps://a.com/,200\n', {
      columnMap: { status: 'HTTP Code' },
    });
    expect(error).toMatchObject({ code: 'unknown_column' });
    expect(error?.message).toContain('"HTTP Code"');
  });

  it('rejects rows with the wrong number of fields, with the record first line', async () => {
    const csv = [
      'url,status,title',
      'https://a.com/1,200,"two',
      'lines"',
      'https://a.com/2,200',
      'https://a.com/3,200,x,extra',
      ',200,no url',
      'https://a.com/4,OK,text status',
      'https://a.com/5,200,"quote ""inside"""',
    ].join('\r\n');
    const { rows, report } = await readAll(csv, {}, 3);
    expect(rows.map((row) => [row.line, row.url])).toEqual([
      [2, 'https://a.com/1'],
      [8, 'https://a.com/5'],
    ]);
    expect(report.rejections).toEqual([
      { line: 4, reason: 'expected 3 fields, found 2' },
      { line: 5, reason: 'expected 3 fields, found 4' },
      { line: 6, reason: 'missing url' },
      { line: 7, reason: "status 'OK' is not a number" },
    ]);
  });

  it('reports an unclosed quote at the end as a bad row', async () => {
    const { rows, report } = await readAll('url,title\nhttps://a.com/1,ok\nhttps://a.com/2,"never closed\n');
    expect(rows).toHaveLength(1);
    expect(report.rejections).toEqual([
      { line: 3, reason: expect.stringMatching(/^malformed CSV: Quote Not Closed/) },
    ]);
  });

  it('stops on a runaway quote instead of buffering the rest of the file', async () => {
    const csv = `url,title\nhttps://a.com/1,ok\nhttps://a.com/2,"runaway\n${'x,y\n'.repeat(2_500_000)}`;
    const error = await importError(csv);
    expect(error).toMatchObject({ code: 'malformed_csv', message: expect.stringContaining('line 3') });
  });

  it('reads a single-column list of URLs', async () => {
    const { rows } = await readAll('url\nhttps://a.com/1\n\nhttps://a.com/2\n');
    expect(rows.map((row) => [row.line, row.url])).toEqual([
      [2, 'https://a.com/1'],
      [4, 'https://a.com/2'],
    ]);
  });

  it.each([
    ['tab', '\t'],
    ['semicolon', ';'],
  ])('detects %s separators', async (_, separator) => {
    const { rows } = await readAll(`url${separator}status\nhttps://a.com/x${separator}200\n`);
    expect(rows[0]).toMatchObject({ url: 'https://a.com/x', status: 200 });
  });

  it('reads UTF-16LE with a BOM in odd-sized chunks', async () => {
    const text = '"URL"\t"HTTP status code"\t"Title"\n"https://a.com/caf\u00e9"\t"404"\t"\u{1F600}"\n';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const { rows } = await readAll(bytes, {}, 5);
    expect(rows).toEqual([expect.objectContaining({ line: 2, url: 'https://a.com/café', status: 404 })]);
  });

  it('fails with no_valid_rows on a header-only file', async () => {
    expect(await importError(`${SF_HEADER}\n`)).toMatchObject({ code: 'no_valid_rows' });
    expect(await importError('url,status\r\n')).toMatchObject({ code: 'no_valid_rows' });
  });
});

describe('Screaming Frog inlinks', () => {
  it('reads Unique Inlinks (pages that link), not Inlinks or Unique JS Inlinks', async () => {
    const { rows, report } = await readAll(
      readFixture('crawl-exports/sf-internal_all-squareone.ca.csv').toString('utf8'),
    );
    expect(report.mappedColumns.inlinks).toBe('Unique Inlinks');
    const page = rows.find((r) => r.url === 'https://www.squareone.ca/resource-centres');
    expect(page?.inlinks).toBe(259);
    const css = rows.find((r) => r.url.includes('classic-themes.min.css'));
    expect(css).toMatchObject({ inlinks: 0, contentType: 'text/css' });
    expect(rows.filter((r) => r.inlinks !== null).length).toBe(rows.length);
  });
});

describe('URL length (SITEMAP_MAX_LOC_CHARS)', () => {
  it('rejects a row whose URL is longer than the limit and keeps the others', async () => {
    const long = `https://a.com/${'c'.repeat(5000)}`;
    const { rows, report } = await readAll(
      `url,status\nhttps://a.com/1,200\n${long},200\nhttps://a.com/3,200\n`,
    );
    expect(rows.map((r) => r.url)).toEqual(['https://a.com/1', 'https://a.com/3']);
    expect(report.rejections).toEqual([
      { line: 3, reason: expect.stringMatching(/is longer than 2,048 characters$/) },
    ]);
  });
});

describe('a huge cell', () => {
  it('skips a line with a 60 MB cell as that row alone, unbuffered, and keeps exact line numbers', async () => {
    const cell = Buffer.alloc(60 * 1024 * 1024, 'x');
    const input = Buffer.concat([
      Buffer.from('url,status,title\nhttps://a.com/1,200,ok\nhttps://a.com/2,200,"'),
      cell,
      Buffer.from('"\nhttps://a.com/3,abc,bad status\nhttps://a.com/4,200,ok\nhttps://a.com/5,200,'),
      cell,
    ]);
    const { rows, report } = await readAll(input, {}, 1024 * 1024);
    expect(rows.map((r) => [r.line, r.url])).toEqual([
      [2, 'https://a.com/1'],
      [5, 'https://a.com/4'],
    ]);
    expect(report.rejections.map((r) => [r.line, r.reason.slice(0, 30)])).toEqual([
      [3, 'the line is longer than 4 MiB '],
      [4, "status 'abc' is not a number"],
      [6, 'the line is longer than 4 MiB '],
    ]);
  });
});
