import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '@/lib/test-support/fixtures';
import { type GscInputFile, groupGscFiles } from './group';
import type { DrilldownExport, GscExport, OverviewExport } from './types';

/** A fixture folder's files, named as inside a zip ("folder/Table.csv"), or renamed. */
function folderFiles(folder: string, rename: (name: string) => string = (name) => `${folder}/${name}`) {
  return readdirSync(fixturePath(`gsc/${folder}`)).map(
    (name): GscInputFile => ({ name: rename(name), bytes: readFixture(`gsc/${folder}/${name}`) }),
  );
}

const text = (name: string, content: string): GscInputFile => ({ name, bytes: Buffer.from(content) });

function only<K extends GscExport['kind']>(exports: GscExport[], kind: K): Extract<GscExport, { kind: K }> {
  const found = exports.filter((e) => e.kind === kind);
  expect(found).toHaveLength(1);
  return found[0] as Extract<GscExport, { kind: K }>;
}

const pagesOf = (overview: OverviewExport) =>
  overview.critical?.rows.reduce((sum, r) => sum + (r.pages ?? 0), 0);
const lastNotIndexed = (overview: OverviewExport) => overview.chart?.rows.at(-1)?.notIndexed;

describe('the real exports group as MANIFEST.md describes them', () => {
  it.each([
    ['cowboykimono-404_errors', 'Not found (404)', 104],
    ['cowboykimono-canonical', 'Alternate page with proper canonical tag', 31],
    ['cowboykimono-coverage', 'Crawled - currently not indexed', 542],
    ['dhmguide-drilldown-page-with-redirect', 'Page with redirect', 46],
  ])('%s: a drilldown of "%s", Table %i URLs == the last Chart value', (folder, issue, urls) => {
    const { exports, errors, ignored } = groupGscFiles(folderFiles(folder));
    expect(errors).toEqual([]);
    expect(ignored).toEqual([]);
    const drilldown = only(exports, 'drilldown');
    expect(exports).toHaveLength(1);
    expect(drilldown.folder).toBe(folder);
    expect(drilldown.description).toMatchObject({ issue, sitemap: 'All known pages', source: null });
    expect(drilldown.table?.rows).toHaveLength(urls);
    expect(drilldown.chartTotal).toBe(urls);
    expect(drilldown.isTruncated).toBe(false);
    expect(drilldown.warnings).toEqual([]);
  });

  it.each([
    ['cowboykimono-overview', 11, 737, 78],
    ['mikenelson-indexing-overview', 9, 22, 81],
  ])(
    '%s: an overview of %i reasons whose Pages sum to the last Chart "Not indexed" (%i)',
    (folder, reasons, notIndexed, indexed) => {
      const { exports, errors } = groupGscFiles(folderFiles(folder));
      expect(errors).toEqual([]);
      const overview = only(exports, 'overview');
      expect(overview.critical?.rows).toHaveLength(reasons);
      expect(overview.nonCritical?.rows).toEqual([]);
      expect(pagesOf(overview)).toBe(notIndexed);
      expect(lastNotIndexed(overview)).toBe(notIndexed);
      expect(overview.chart?.rows.at(-1)?.indexed).toBe(indexed);
      expect(overview.description.sitemap).toBe('All known pages');
      expect(overview.warnings).toEqual([]);
    },
  );

  it('dhmguide-indexing-overview: issues only, 9 reasons and 209 pages, the missing files said', () => {
    const { exports } = groupGscFiles(folderFiles('dhmguide-indexing-overview'));
    const overview = only(exports, 'overview');
    expect(pagesOf(overview)).toBe(209);
    expect(overview.critical?.rows.find((r) => r.reason === 'Page with redirect')?.pages).toBe(46);
    expect(overview.critical?.rows.find((r) => r.reason === 'Crawled - currently not indexed')?.pages).toBe(
      106,
    );
    expect(overview.warnings).toEqual([
      'no Metadata.csv: which sitemap the overview covers is unknown',
      'no Chart.csv: the indexed and not-indexed totals are unknown',
    ]);
  });

  it('firstserveseattle-pages-report: one folder, two exports — the Issue row sends Metadata to the drilldown', () => {
    const { exports, errors } = groupGscFiles(folderFiles('firstserveseattle-pages-report'));
    expect(errors).toEqual([]);
    const drilldown = only(exports, 'drilldown');
    expect(drilldown.files.sort()).toEqual([
      'firstserveseattle-pages-report/Chart.csv',
      'firstserveseattle-pages-report/Metadata.csv',
      'firstserveseattle-pages-report/Table.csv',
    ]);
    expect(drilldown.description.issue).toBe('Page with redirect');
    expect(drilldown.table?.rows).toHaveLength(29);
    expect(drilldown.chartTotal).toBe(29);
    const overview = only(exports, 'overview');
    expect(overview.metadata).toBeNull();
    expect(overview.critical?.rows.map((r) => [r.reason, r.pages])).toEqual([
      ['Page with redirect', 32],
      ['Server error (5xx)', 4],
      ['Alternate page with proper canonical tag', 1],
      ['Crawled - currently not indexed', 7],
    ]);
    // Exported on different days: the overview's 32 redirects are not the drilldown's 29.
    expect(overview.critical?.rows[0]?.pages).not.toBe(drilldown.chartTotal);
    // The import lists a Metadata.csv and a Chart.csv: the overview says they are the drilldown's rather
    // than "no Metadata.csv … no Chart.csv" beside them.
    expect(overview.warnings).toEqual([
      'Metadata.csv belongs to the drilldown (Page with redirect) and the overview has none of its own, so which sitemap the overview covers is unknown',
      "Chart.csv counts the drilldown's affected pages and the overview has no chart of its own, so the indexed and not-indexed totals are unknown",
    ]);
    expect(drilldown.warnings).toEqual([]);
  });

  it('dhmguide-performance: Pages.csv is read, the other tables are listed as ignored in a zip', () => {
    const { exports, errors, ignored } = groupGscFiles(folderFiles('dhmguide-performance'), {
      zipName: 'perf.zip',
    });
    expect(errors).toEqual([]);
    expect(only(exports, 'performance').pages.rows).toHaveLength(74);
    expect(ignored.map((f) => f.name).sort()).toEqual(
      [
        'Countries.csv',
        'Dates.csv',
        'Devices.csv',
        'Filters.csv',
        'Queries.csv',
        'Search appearance.csv',
      ].map((name) => `dhmguide-performance/${name}`),
    );
    expect(ignored.find((f) => f.name.endsWith('Queries.csv'))?.reason).toMatch(/Performance report table/);
  });

  it('every fixture folder uploaded together stays apart by folder', () => {
    const folders = readdirSync(fixturePath('gsc'));
    const { exports, errors } = groupGscFiles(
      folders.flatMap((folder) => folderFiles(folder)),
      { zipName: 'all.zip' },
    );
    expect(errors).toEqual([]);
    expect(exports.map((e) => `${e.folder}:${e.kind}`)).toEqual([
      'cowboykimono-404_errors:drilldown',
      'cowboykimono-canonical:drilldown',
      'cowboykimono-coverage:drilldown',
      'cowboykimono-overview:overview',
      'dhmguide-drilldown-page-with-redirect:drilldown',
      'dhmguide-indexing-overview:overview',
      'dhmguide-performance:performance',
      'firstserveseattle-pages-report:drilldown',
      'firstserveseattle-pages-report:overview',
      'mikenelson-indexing-overview:overview',
    ]);
    // Their header-only Non-critical issues.csv files are identical, and each overview keeps its own.
    const overviews = exports.filter((e): e is OverviewExport => e.kind === 'overview');
    expect(overviews.map((e) => e.nonCritical?.name)).toEqual([
      'cowboykimono-overview/Non-critical issues.csv',
      'dhmguide-indexing-overview/Non-critical issues.csv',
      'firstserveseattle-pages-report/Non-critical issues.csv',
      'mikenelson-indexing-overview/Non-critical issues.csv',
    ]);
  });
});

describe('crafted sets of files', () => {
  it('renamed files are placed by their header', () => {
    const renamed = folderFiles(
      'cowboykimono-404_errors',
      (name) => `404 ${name.toLowerCase().replace('.csv', '-export.csv')}`,
    );
    const drilldown = only(groupGscFiles(renamed).exports, 'drilldown');
    expect(drilldown.table?.name).toBe('404 table-export.csv');
    expect(drilldown.description.issue).toBe('Not found (404)');
    expect(drilldown.chartTotal).toBe(104);
  });

  it('a drilldown without Metadata is kept, and says what it does not know', () => {
    const files = folderFiles('cowboykimono-canonical').filter((f) => !f.name.endsWith('Metadata.csv'));
    const drilldown = only(groupGscFiles(files).exports, 'drilldown');
    expect(drilldown.metadata).toBeNull();
    expect(drilldown.description.issue).toBeNull();
    expect(drilldown.warnings).toEqual([
      'no Metadata.csv: which issue and sitemap the export covers is unknown',
    ]);
  });

  it('a table capped at 1,000 rows while the chart says 46,362 is marked truncated', () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `https://a.example/p/${i},2025-11-0${(i % 9) + 1}`);
    const { exports } = groupGscFiles([
      text('Table.csv', `URL,Last crawled\n${urls.join('\n')}`),
      text('Chart.csv', 'Date,Affected pages\n2025-11-20,"46,100"\n2025-11-21,"46,362"\n'),
      text(
        'Metadata.csv',
        'Property,Value\nIssue,Crawled - currently not indexed\nSitemap,https://a.example/sitemap.xml\n',
      ),
    ]);
    const drilldown = only(exports, 'drilldown') as DrilldownExport;
    expect(drilldown.isTruncated).toBe(true);
    expect(drilldown.chartTotal).toBe(46362);
    expect(drilldown.description.sitemap).toBe('https://a.example/sitemap.xml');
    expect(drilldown.warnings).toEqual([
      'the table lists 1,000 of the 46,362 affected pages (Search Console exports at most 1,000 rows)',
    ]);
  });

  it('German Metadata rows are read into the description', () => {
    const { exports } = groupGscFiles([
      text('Tabelle.csv', 'URL,Zuletzt gecrawlt\nhttps://a.example/,31.01.2025\n'),
      text(
        'Metadaten.csv',
        'Eigenschaft,Wert\nProblem,Soft 404\nSitemap,Alle bekannten Seiten\nQuelle,Website\n',
      ),
    ]);
    expect(only(exports, 'drilldown').description).toEqual({
      issue: 'Soft 404',
      sitemap: 'Alle bekannten Seiten',
      source: 'Website',
      property: null,
      other: { Problem: 'Soft 404', Sitemap: 'Alle bekannten Seiten', Quelle: 'Website' },
    });
  });

  it('two downloads of one export, told apart by the browser’s copy suffix', () => {
    const { exports, errors } = groupGscFiles([
      ...folderFiles('cowboykimono-canonical', (name) => name),
      ...folderFiles('cowboykimono-404_errors', (name) => name.replace('.csv', ' (1).csv')),
    ]);
    expect(errors).toEqual([]);
    expect(exports.map((e) => (e as DrilldownExport).description.issue).sort()).toEqual([
      'Alternate page with proper canonical tag',
      'Not found (404)',
    ]);
  });

  it('renamed exports in one upload are paired by what is left of their names', () => {
    const { exports, errors } = groupGscFiles([
      ...folderFiles('cowboykimono-canonical', (name) => `canonical ${name}`),
      ...folderFiles('cowboykimono-404_errors', (name) => `404-${name}`),
    ]);
    expect(errors).toEqual([]);
    const byIssue = Object.fromEntries(
      exports.map((e) => [(e as DrilldownExport).description.issue, (e as DrilldownExport).table?.name]),
    );
    expect(byIssue).toEqual({
      'Alternate page with proper canonical tag': 'canonical Table.csv',
      'Not found (404)': '404-Table.csv',
    });
  });

  it('the same rows twice are one file; two tables that cannot be told apart are refused by name', () => {
    const table = readFixture('gsc/cowboykimono-canonical/Table.csv');
    const copies = groupGscFiles([
      { name: 'Table.csv', bytes: table },
      { name: 'copy of Table.csv', bytes: table },
      { name: 'Metadata.csv', bytes: readFixture('gsc/cowboykimono-canonical/Metadata.csv') },
    ]);
    expect(copies.errors).toEqual([]);
    expect(copies.ignored).toEqual([{ name: 'copy of Table.csv', reason: 'the same content as Table.csv' }]);
    expect(only(copies.exports, 'drilldown').files).toEqual(['Table.csv', 'Metadata.csv']);
    const { exports, errors } = groupGscFiles([
      { name: 'x/Table.csv', bytes: table },
      { name: 'x/table.txt', bytes: readFixture('gsc/cowboykimono-404_errors/Table.csv') },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      "x/table.txt: a second drilldown table (URL, Last crawled) in folder 'x' (besides x/Table.csv); put each export in its own folder or upload it separately",
    ]);
    expect(only(exports, 'drilldown').table?.name).toBe('x/Table.csv');
  });

  it('an unrecognised upload is an error; in a zip it is listed as ignored', () => {
    const files = [text('notes.csv', 'foo,bar\n'), ...folderFiles('cowboykimono-404_errors')];
    const uploaded = groupGscFiles(files);
    expect(uploaded.errors.map((e) => e.file)).toEqual(['notes.csv']);
    expect(uploaded.errors[0]?.message).toMatch(
      /^notes\.csv line 1: expected a Search Console export .*found 'foo,bar'$/,
    );
    const zipped = groupGscFiles(files, { zipName: 'export.zip' });
    expect(zipped.errors).toEqual([]);
    expect(zipped.ignored.map((f) => f.name)).toEqual(['notes.csv']);
    expect(zipped.exports).toHaveLength(1);
  });

  it('a malformed export is an error even inside a zip; Metadata with nothing to describe is ignored', () => {
    const { errors, ignored, exports } = groupGscFiles(
      [
        text('a/Table.csv', 'URL,Last crawled\nhttps://a.example/,someday\n'),
        text('b/Metadata.csv', 'Property,Value\nIssue,Soft 404\n'),
      ],
      { zipName: 'export.zip' },
    );
    expect(errors.map((e) => e.message)).toEqual([
      "a/Table.csv line 2: 'Last crawled': expected a date (2025-01-31, Jan 31, 2025, 31 Jan 2025, 31.01.2025 or 31/01/2025); found 'someday'",
    ]);
    expect(ignored).toEqual([
      { name: 'b/Metadata.csv', reason: "no export in folder 'b' for it to describe" },
    ]);
    expect(exports).toEqual([]);
  });

  it('a zip of nothing recognisable is an error naming the zip and what was in it', () => {
    const { errors } = groupGscFiles([text('x/readme.csv', 'hello,world\n')], { zipName: 'stuff.zip' });
    expect(errors.map((e) => e.message)).toEqual([
      "stuff.zip: the zip holds no Search Console export (x/readme.csv: expected a Search Console export (a header like 'URL,Last crawled', 'Property,Value', 'Date,Not indexed,Indexed,Impressions', 'Date,Affected pages', 'Reason,Source,Validation,Pages', 'Sitemap,Type,Submitted,Last read,Status,Discovered pages,Discovered videos', 'Top pages,Clicks,Impressions,CTR,Position'); found 'hello,world')",
    ]);
  });

  it('an overview whose reasons do not add up to the chart says so', () => {
    const { exports } = groupGscFiles([
      text('Critical issues.csv', 'Reason,Source,Validation,Pages\nSoft 404,Website,N/A,5\n'),
      text('Chart.csv', 'Date,Not indexed,Indexed,Impressions\n2025-01-31,7,10,0\n'),
      text('Metadata.csv', 'Property,Value\nSitemap,All submitted pages\n'),
    ]);
    const overview = only(exports, 'overview');
    expect(overview.description.sitemap).toBe('All submitted pages');
    expect(overview.warnings).toEqual([
      'the reasons add up to 5 pages, the chart\'s last "Not indexed" count is 7',
    ]);
  });
});
