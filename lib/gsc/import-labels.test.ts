import { describe, expect, it } from 'vitest';
import { describeExport, problemPlace } from './import-labels';
import type { ImportedExport } from './import-schema';

const exp = (over: Partial<ImportedExport>): ImportedExport => ({
  kind: 'drilldown',
  folder: '',
  files: [],
  description: {
    issue: 'Page with redirect',
    sitemap: 'All known pages',
    source: null,
    property: null,
    other: {},
  },
  warnings: [],
  rows: 46,
  chartTotal: 46,
  isTruncated: false,
  urlState: 'not_indexed',
  ...over,
});

describe('describeExport', () => {
  it('names a drilldown by its issue and scope, and says when its table was capped', () => {
    expect(describeExport(exp({}))).toBe('Drilldown: Page with redirect — All known pages — 46 URLs');
    expect(describeExport(exp({ rows: 1000, chartTotal: 46362, isTruncated: true }))).toBe(
      'Drilldown: Page with redirect — All known pages — 1,000 URLs (table capped: the chart says 46,362)',
    );
    expect(
      describeExport(
        exp({
          rows: 1,
          description: { issue: null, sitemap: null, source: null, property: null, other: {} },
        }),
      ),
    ).toBe('Drilldown: issue unknown (no Metadata.csv) — 1 URL');
  });

  it('counts the rows of the other kinds', () => {
    expect(describeExport(exp({ kind: 'overview', rows: 9 }))).toBe(
      'Page indexing overview — All known pages — 9 reasons',
    );
    expect(describeExport(exp({ kind: 'sitemaps', rows: 1 }))).toBe('Sitemaps report — 1 sitemap');
    expect(describeExport(exp({ kind: 'performance', rows: 74 }))).toBe('Performance: pages — 74 pages');
  });
});

describe('problemPlace', () => {
  it('names the line when there is one', () => {
    expect(problemPlace('Table.csv', 4)).toBe('Table.csv line 4');
    expect(problemPlace('x.zip', null)).toBe('x.zip');
  });
});
