import { describe, expect, it } from 'vitest';
import { readFixture } from '@/lib/test-support/fixtures';
import { parseGscFile } from './parse';
import { type GscFile, GscFileError, type GscFileKind } from './types';

const fixture = (relative: string) =>
  parseGscFile(relative.split('/').pop() as string, readFixture(`gsc/${relative}`));

function kindOf<K extends GscFileKind>(file: GscFile, kind: K): Extract<GscFile, { kind: K }> {
  expect(file.kind).toBe(kind);
  return file as Extract<GscFile, { kind: K }>;
}

/** The error a file is refused with. */
function refusal(name: string, text: string | Buffer, limits = {}): GscFileError {
  try {
    parseGscFile(name, typeof text === 'string' ? Buffer.from(text) : text, limits);
  } catch (error) {
    if (error instanceof GscFileError) return error;
    throw error;
  }
  throw new Error(`${name} was accepted`);
}

describe('every real export in fixtures/gsc', () => {
  it.each([
    ['cowboykimono-404_errors/Table.csv', 'drilldown-table', 104],
    ['cowboykimono-404_errors/Chart.csv', 'drilldown-chart', 78],
    ['cowboykimono-404_errors/Metadata.csv', 'metadata', 2],
    ['cowboykimono-canonical/Table.csv', 'drilldown-table', 31],
    ['cowboykimono-coverage/Table.csv', 'drilldown-table', 542],
    ['cowboykimono-overview/Critical issues.csv', 'issues', 11],
    ['cowboykimono-overview/Non-critical issues.csv', 'issues', 0],
    ['cowboykimono-overview/Chart.csv', 'overview-chart', 86],
    ['cowboykimono-overview/Metadata.csv', 'metadata', 1],
    ['dhmguide-drilldown-page-with-redirect/Table.csv', 'drilldown-table', 46],
    ['dhmguide-indexing-overview/Critical issues.csv', 'issues', 9],
    ['dhmguide-performance/Pages.csv', 'performance-pages', 74],
    ['firstserveseattle-pages-report/Table.csv', 'drilldown-table', 29],
    ['firstserveseattle-pages-report/Critical issues.csv', 'issues', 4],
    ['mikenelson-indexing-overview/Critical issues.csv', 'issues', 9],
    ['mikenelson-indexing-overview/Chart.csv', 'overview-chart', 30],
  ])('%s is a %s with %i rows', (relative, kind, rows) => {
    const file = fixture(relative);
    expect(file.kind).toBe(kind);
    expect(file.rows).toHaveLength(rows);
    expect(file.ignoredColumns).toEqual([]);
  });

  it('Table.csv: URLs as written, dates, and the physical line of each (no final newline)', () => {
    const table = kindOf(fixture('dhmguide-drilldown-page-with-redirect/Table.csv'), 'drilldown-table');
    expect(table.rows[0]).toEqual({
      line: 2,
      url: 'https://dhmguide.com/',
      lastCrawled: '2025-11-03',
      status: null,
    });
    expect(table.rows.at(-1)?.line).toBe(47);
    const hosts = table.rows.map((row) => new URL(row.url).hostname);
    expect(hosts.filter((h) => h === 'www.dhmguide.com')).toHaveLength(33);
    expect(hosts.filter((h) => h === 'dhmguide.com')).toHaveLength(13);
  });

  it('Critical issues.csv: curly quotes kept, the quoted comma reason, N/A validation, 0-page row', () => {
    const issues = kindOf(fixture('mikenelson-indexing-overview/Critical issues.csv'), 'issues');
    expect(issues.severity).toBe('critical');
    const reasons = issues.rows.map((row) => row.reason);
    expect(reasons).toContain('Excluded by ‘noindex’ tag');
    expect(reasons).toContain('Duplicate, Google chose different canonical than user');
    expect(issues.rows.reduce((sum, row) => sum + (row.pages ?? 0), 0)).toBe(22);
    expect(issues.rows.at(-1)).toEqual({
      line: 10,
      reason: 'Discovered - currently not indexed',
      source: 'Google systems',
      validation: null,
      trend: null,
      pages: 0,
    });
  });

  it('Non-critical issues.csv: header only, told apart from Critical by its name', () => {
    const issues = kindOf(fixture('dhmguide-indexing-overview/Non-critical issues.csv'), 'issues');
    expect(issues.severity).toBe('non-critical');
    expect(issues.rows).toEqual([]);
  });

  it('Chart.csv (overview): the first day has empty counts, read as unknown', () => {
    const chart = kindOf(fixture('cowboykimono-overview/Chart.csv'), 'overview-chart');
    expect(chart.rows[0]).toEqual({
      line: 2,
      date: '2025-07-24',
      notIndexed: null,
      indexed: null,
      impressions: 11,
    });
    expect(chart.rows.at(-1)).toEqual({
      line: 87,
      date: '2025-10-17',
      notIndexed: 737,
      indexed: 78,
      impressions: 3,
    });
  });

  it('Pages.csv (Performance): CTR as a fraction, position as a number', () => {
    const pages = kindOf(fixture('dhmguide-performance/Pages.csv'), 'performance-pages');
    expect(pages.rows[0]).toEqual({
      line: 2,
      url: 'https://www.dhmguide.com/never-hungover/dhm-dosage-guide-2025',
      clicks: 111,
      impressions: 1693,
      ctr: 0.0656,
      position: 5.62,
    });
  });

  it.each([
    ['Queries.csv', /a Performance report table \('Top queries'\); only its Pages table/],
    ['Countries.csv', /a Performance report table \('Country'\)/],
    ['Dates.csv', /a Performance report table \('Date'\)/],
    ['Filters.csv', /the Performance report's filters/],
  ])('the Performance export’s %s is named as such, not read', (name, message) => {
    const error = refusal(name, readFixture(`gsc/dhmguide-performance/${name}`));
    expect(error.isUnrecognised).toBe(true);
    expect(error.message).toMatch(message);
  });
});

describe('variants of the same exports', () => {
  it('is told by its header, whatever the file is called', () => {
    const file = parseGscFile('404s from GSC.csv', readFixture('gsc/cowboykimono-404_errors/Table.csv'));
    expect(file.kind).toBe('drilldown-table');
    expect(file.rows).toHaveLength(104);
  });

  it('reads reordered, extra and differently cased columns (Status, Trend)', () => {
    const table = kindOf(
      parseGscFile(
        'Table.csv',
        Buffer.from('status,last  CRAWLED,Notes,url\nIndexed,2025-01-31,x,https://a.example/\n'),
      ),
      'drilldown-table',
    );
    expect(table.rows).toEqual([
      { line: 2, url: 'https://a.example/', lastCrawled: '2025-01-31', status: 'Indexed' },
    ]);
    expect(table.ignoredColumns).toEqual(['Notes']);
    const issues = kindOf(
      parseGscFile(
        'Critical issues.csv',
        Buffer.from('Reason,Source,Validation,Trend,Pages\nSoft 404,Website,Started,Up,"1,234"\n'),
      ),
      'issues',
    );
    expect(issues.rows[0]).toMatchObject({ reason: 'Soft 404', trend: 'Up', pages: 1234 });
  });

  it('reads German, French and Spanish headers', () => {
    const german = kindOf(
      parseGscFile('Tabelle.csv', Buffer.from('URL,Zuletzt gecrawlt\nhttps://a.example/,31.01.2025\n')),
      'drilldown-table',
    );
    expect(german.rows[0]?.lastCrawled).toBe('2025-01-31');
    const chart = kindOf(
      parseGscFile(
        'Diagramm.csv',
        Buffer.from('Datum,Nicht indexiert,Indexiert,Impressionen\n2025-01-31,"46.362",12,0\n'),
      ),
      'overview-chart',
    );
    expect(chart.rows[0]).toMatchObject({ notIndexed: 46362, indexed: 12 });
    const french = parseGscFile(
      'Problèmes critiques.csv',
      Buffer.from('Raison,Source,Validation,Pages\nSoft 404,Site Web,N/A,3\n'),
    );
    expect(french.kind).toBe('issues');
    const spanish = parseGscFile('Metadatos.csv', Buffer.from('Propiedad,Valor\nProblema,Soft 404\n'));
    expect(spanish.kind).toBe('metadata');
    const sitemaps = kindOf(
      parseGscFile(
        'Sitemaps.csv',
        Buffer.from(
          'Sitemap,Tipo,Enviado,Última lectura,Estado,Páginas descubiertas,Vídeos descubiertos\nhttps://a.example/sitemap.xml,Sitemap,02/11/2025,20/11/2025,Correcto,"1.234",0\n',
        ),
      ),
      'sitemaps',
    );
    // 20/11 makes the file day-first, so 02/11 is the 2nd of November.
    expect(sitemaps.rows[0]).toMatchObject({
      submitted: '2025-11-02',
      lastRead: '2025-11-20',
      discoveredPages: 1234,
    });
  });

  it('reads the Sitemaps report as the UI shows it (month names, any column order)', () => {
    const sitemaps = kindOf(
      parseGscFile(
        'Sitemaps.csv',
        Buffer.from(
          'Status,Sitemap,Discovered pages,Discovered videos,Type,Last read,Submitted\n' +
            'Success,https://a.example/sitemap.xml,"46,362",0,Sitemap index,"Nov 20, 2025","Jan 3, 2024"\n' +
            'Couldn\'t fetch,https://a.example/news.xml,0,0,Unknown,N/A,"Nov 1, 2025"\n',
        ),
      ),
      'sitemaps',
    );
    expect(sitemaps.rows).toEqual([
      {
        line: 2,
        sitemap: 'https://a.example/sitemap.xml',
        type: 'Sitemap index',
        submitted: '2024-01-03',
        lastRead: '2025-11-20',
        status: 'Success',
        discoveredPages: 46362,
        discoveredVideos: 0,
      },
      {
        line: 3,
        sitemap: 'https://a.example/news.xml',
        type: 'Unknown',
        submitted: '2025-11-01',
        lastRead: null,
        status: "Couldn't fetch",
        discoveredPages: 0,
        discoveredVideos: 0,
      },
    ]);
  });

  it('reads a Sitemaps report without its Submitted column', () => {
    const file = parseGscFile('s.csv', Buffer.from('Sitemap,Discovered pages\nhttps://a.example/s.xml,12\n'));
    expect(file.kind).toBe('sitemaps');
    expect(file.rows[0]).toMatchObject({
      sitemap: 'https://a.example/s.xml',
      submitted: null,
      discoveredPages: 12,
    });
  });

  it('notes when slashed dates could run either way', () => {
    const table = parseGscFile('Table.csv', Buffer.from('URL,Last crawled\nhttps://a.example/,02/03/2025\n'));
    expect(table.rows[0]).toMatchObject({ lastCrawled: '2025-03-02' });
    expect(table.notes).toEqual(['slashed dates could be read either way; read day first (DD/MM/YYYY)']);
  });

  it('reads a UTF-8 BOM, CRLF, blank lines, semicolons and UTF-16 with a BOM', () => {
    const text =
      'URL,Last crawled\r\nhttps://a.example/,2025-01-31\r\n\r\nhttps://b.example/,2025-01-30\r\n\r\n';
    const expected = [
      { line: 2, url: 'https://a.example/', lastCrawled: '2025-01-31', status: null },
      { line: 4, url: 'https://b.example/', lastCrawled: '2025-01-30', status: null },
    ];
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(parseGscFile('Table.csv', bom).rows).toEqual(expected);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(parseGscFile('Table.csv', utf16).rows).toEqual(expected);
    const semicolons = Buffer.from(text.replaceAll(',', ';'));
    expect(parseGscFile('Table.csv', semicolons).rows).toEqual(expected);
  });
});

describe('refused files name the file, the line and what was expected', () => {
  it('a file that is no Search Console export', () => {
    const error = refusal('Table.csv', 'foo,bar\n1,2\n');
    expect(error.isUnrecognised).toBe(true);
    expect(error.message).toMatch(
      /^Table\.csv line 1: expected a Search Console export \(a header like 'URL,Last crawled', 'Property,Value', .*\); found 'foo,bar'$/,
    );
    expect(refusal('Empty.csv', '\n\n').message).toBe('Empty.csv: the file is empty');
  });

  it('garbage lines, each with its line number', () => {
    const error = refusal(
      'Table.csv',
      'URL,Last crawled\nhttps://a.example/,2025-01-31\nnot a url,2025-01-31\nhttps://b.example/,last week\nhttps://c.example/\n\nhttps://d.example/,2025-02-30\n',
    );
    expect(error.isUnrecognised).toBe(false);
    expect(error.problems).toEqual([
      { line: 3, message: "'URL': expected an absolute http(s) URL; found 'not a url'" },
      {
        line: 4,
        message:
          "'Last crawled': expected a date (2025-01-31, Jan 31, 2025, 31 Jan 2025, 31.01.2025 or 31/01/2025); found 'last week'",
      },
      { line: 5, message: 'has 1 fields where the header has 2' },
      { line: 7, message: "'Last crawled': '2025-02-30' is not a calendar date" },
    ]);
    expect(error.message).toMatch(/^Table\.csv line 3: 'URL': expected an absolute/);
  });

  it('a quoted newline keeps the line numbers after it right', () => {
    const error = refusal(
      'Critical issues.csv',
      'Reason,Source,Validation,Pages\n"Two\nlines",Website,N/A,few\nSoft 404,Website,N/A,many\n',
    );
    expect(error.problems).toEqual([
      { line: 2, message: "'Pages': expected a whole number of pages (like 1,234); found 'few'" },
      { line: 4, message: "'Pages': expected a whole number of pages (like 1,234); found 'many'" },
    ]);
  });

  it('broken CSV quoting', () => {
    const error = refusal('Metadata.csv', 'Property,Value\nIssue,"Soft 404" x\n');
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.line).toBe(2);
    expect(error.problems[0]?.message).toMatch(/^not valid CSV \(Invalid Closing Quote/);
  });

  it('a huge first line or record is refused without parsing it', () => {
    const line = 'x'.repeat(5_000_000);
    expect(refusal('Table.csv', `${line}\n`).message).toBe(
      'Table.csv line 1: expected a Search Console export; the first line is 5,000,000 characters long',
    );
    const error = refusal(
      'Table.csv',
      `URL,Last crawled\nhttps://a.example/,2025-01-31\n"https://b.example/${line}\n`,
    );
    expect(error.problems).toEqual([
      { line: 3, message: 'not valid CSV (a record longer than 256 KiB (an unbalanced quote?))' },
    ]);
  });

  it('lists ten problems and counts the rest', () => {
    const rows = Array.from({ length: 15 }, () => 'nope,2025-01-31').join('\n');
    const error = refusal('Table.csv', `URL,Last crawled\n${rows}\n`);
    expect(error.problems).toHaveLength(11);
    expect(error.problems[10]).toEqual({ line: null, message: 'and 5 more problems' });
  });

  it('binary data, and files over the size or row cap', () => {
    expect(refusal('Table.csv', Buffer.from([0x55, 0x52, 0x4c, 0xc3, 0x28])).message).toBe(
      'Table.csv: the file is not UTF-8 text (is it a CSV export?)',
    );
    const table = `URL,Last crawled\n${'https://a.example/,2025-01-31\n'.repeat(20)}`;
    expect(refusal('Table.csv', table, { maxBytes: 100 }).message).toMatch(
      /^Table\.csv: the file is 1 KiB, more than the 1 KiB a Search Console export can be$/,
    );
    expect(refusal('Table.csv', table, { maxRows: 10 }).message).toBe(
      'Table.csv line 12: more than 10 rows; the file is refused',
    );
    expect(parseGscFile('Table.csv', Buffer.from(table), { maxRows: 20 }).rows).toHaveLength(20);
    // The default cap, checked before anything is decoded.
    expect(refusal('Table.csv', Buffer.alloc(11 * 1024 * 1024, 0x41)).message).toBe(
      'Table.csv: the file is 11 MiB, more than the 10 MiB a Search Console export can be',
    );
  });
});
