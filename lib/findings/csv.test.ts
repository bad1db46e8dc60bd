import { describe, expect, it } from 'vitest';
import { CSV_HEADER, csvCell, csvLine, exportFileName, findingCsvLine } from './csv';
import type { FindingDto } from './schema';

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://evil")', `"'=HYPERLINK(""http://evil"")"`],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\r=1', `"'\r=1"`],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
  ])('neutralises and quotes %j', (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it('writes empty cells for missing values and keeps numbers', () => {
    expect(csvLine([null, undefined, 404, 'x'])).toBe(',,404,x\r\n');
  });
});

describe('findingCsvLine', () => {
  const finding: FindingDto = {
    id: 1,
    url: 'https://ex.com/a,b',
    list: 'prune',
    reason: 'http_404',
    reasons: ['http_404'],
    evidence: { status: 404 },
    status: 404,
    canonical: null,
    lastmod: null,
    sitemapFile: null,
    decision: 'approved',
    decidedBy: 'ana',
    decidedAt: '2026-11-30T12:00:00.000Z',
    note: '=cmd|calc',
  };

  it('starts with the playbook columns and neutralises a hostile note', () => {
    expect(CSV_HEADER.slice(0, 2)).toEqual(['url', 'reason']);
    const line = findingCsvLine(finding);
    expect(line.startsWith('"https://ex.com/a,b",http_404,')).toBe(true);
    expect(line.endsWith(",approved,ana,2026-11-30T12:00:00.000Z,'=cmd|calc\r\n")).toBe(true);
  });
});

describe('exportFileName', () => {
  it('names the audit, list, decision and date', () => {
    expect(
      exportFileName('Shop — November!', 'prune', 'approved', 'csv', new Date('2026-11-30T10:00:00Z')),
    ).toBe('shop-november-prune-approved-2026-11-30.csv');
    expect(exportFileName('***', 'add', 'all', 'jsonl', new Date('2026-11-30T10:00:00Z'))).toBe(
      'audit-add-all-2026-11-30.jsonl',
    );
  });
});
