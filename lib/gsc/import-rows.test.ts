import { describe, expect, it } from 'vitest';
import { groupGscFiles } from './group';
import { importRowsOf, isIndexedIssue } from './import-rows';

const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) });
const rowsOf = (files: { name: string; bytes: Uint8Array }[]) => {
  const grouped = groupGscFiles(files);
  expect(grouped.errors).toEqual([]);
  return importRowsOf(grouped.exports, 'lenient');
};

describe('isIndexedIssue', () => {
  it('knows the indexed-pages drilldowns, and no reason why pages are not indexed', () => {
    for (const issue of [
      'Indexed',
      'All indexed pages',
      'Submitted and indexed',
      'Indexed, not submitted in sitemap',
      'Indexed, though blocked by robots.txt',
    ]) {
      expect(isIndexedIssue(issue), issue).toBe(true);
    }
    for (const issue of [
      'Crawled - currently not indexed',
      'Discovered – currently not indexed',
      'Page with redirect',
      'Not found (404)',
    ]) {
      expect(isIndexedIssue(issue), issue).toBe(false);
    }
  });
});

describe('importRowsOf', () => {
  it('stores a drilldown of an issue as not indexed with its bucket, keyed by the profile', () => {
    const rows = rowsOf([
      file('Table.csv', 'URL,Last crawled\nhttps://WWW.Example.com/a/,2025-01-31\n'),
      file('Metadata.csv', 'Property,Value\nSitemap,All known pages\nIssue,Excluded by ‘noindex’ tag\n'),
    ]);
    expect(rows.urlStates).toEqual([
      {
        exportIndex: 0,
        line: 2,
        url: 'https://WWW.Example.com/a/',
        key: 'https://www.example.com/a',
        state: 'not_indexed',
        reason: 'Excluded by ‘noindex’ tag',
        bucket: 'noindex',
        lastCrawled: '2025-01-31',
        scope: 'All known pages',
        source: 'drilldown',
      },
    ]);
    expect(rows.exports[0]).toMatchObject({ kind: 'drilldown', urlState: 'not_indexed', rows: 1 });
    expect(rows.summary).toMatchObject({ urls: 1, notIndexed: 1, indexed: 0, unkeyed: 0 });
  });

  it('stores the indexed-pages drilldown as indexed, with no reason', () => {
    const rows = rowsOf([
      file('Table.csv', 'URL,Last crawled\nhttps://example.com/a,2025-01-31\n'),
      file('Metadata.csv', 'Property,Value\nIssue,All indexed pages\n'),
    ]);
    expect(rows.urlStates).toMatchObject([{ state: 'indexed', reason: null, bucket: null }]);
  });

  it('stores nothing of a drilldown whose issue is unknown, and says so', () => {
    const rows = rowsOf([file('Table.csv', 'URL,Last crawled\nhttps://example.com/a,2025-01-31\n')]);
    expect(rows.urlStates).toEqual([]);
    expect(rows.exports[0]?.urlState).toBeNull();
    expect(rows.exports[0]?.warnings).toContain(
      'no Issue in its Metadata: its URLs are not stored as indexed or not indexed',
    );
  });

  it('takes Performance pages with impressions as indexed, and skips pages without', () => {
    const rows = rowsOf([
      file(
        'Pages.csv',
        'Top pages,Clicks,Impressions\nhttps://example.com/a,0,3\nhttps://example.com/b,0,0\n',
      ),
    ]);
    expect(rows.urlStates).toMatchObject([
      { url: 'https://example.com/a', state: 'indexed', source: 'performance' },
    ]);
    expect(rows.exports[0]).toMatchObject({ kind: 'performance', rows: 2 });
  });

  it('keeps one chart point a day and buckets every issue', () => {
    const rows = rowsOf([
      file('Chart.csv', 'Date,Not indexed,Indexed\n2025-01-01,,\n2025-01-02,3,4\n2025-01-02,5,6\n'),
      file(
        'Critical issues.csv',
        'Reason,Source,Validation,Pages\nSoft 404,Website,N/A,2\nSomething new,Google systems,N/A,1\n',
      ),
    ]);
    expect(rows.chartPoints).toEqual([
      { exportIndex: 0, date: '2025-01-01', indexed: null, notIndexed: null, impressions: null },
      { exportIndex: 0, date: '2025-01-02', indexed: 6, notIndexed: 5, impressions: null },
    ]);
    expect(rows.issueCounts.map((r) => [r.severity, r.reason, r.bucket, r.pages])).toEqual([
      ['critical', 'Soft 404', 'soft_404', 2],
      ['critical', 'Something new', 'other', 1],
    ]);
  });
});
