import { describe, expect, it } from 'vitest';
import { exportFileName, neutraliseCell } from './csv';

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

describe('neutraliseCell', () => {
  // [cell, neutralised]: every segment a reader could split off that starts (after spaces) with a
  // formula character gets a leading apostrophe; harmless cells are left alone.
  const CASES: [string, string][] = [
    ['https://example.com/a', 'https://example.com/a'],
    ['https://example.com/a-b?x=1&y=-2', 'https://example.com/a-b?x=1&y=-2'],
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t'=1"],
    ['\r=1', "'\r'=1"],
    ['  =1', "'  =1"],
    ['ok;=1+1', "ok;'=1+1"],
    ['ok; =1+1', "ok;' =1+1"],
    ['ok;  +1', "ok;'  +1"],
    ['ok\t=1+1', "ok\t'=1+1"],
    ['ok\t\t=1', "ok\t'\t'=1"],
    ['ok,=1+1', "ok,'=1+1"],
    ['ok,-2', "ok,'-2"],
    ['a.xml|@b.xml', "a.xml|'@b.xml"],
    ['x";=1', `x";'=1`],
    ['"=1"', '"=1"'],
    ['note\r\n=HYPERLINK("http://evil")', `note\r\n'=HYPERLINK("http://evil")`],
    ['note\n@x', "note\n'@x"],
    ['ok;;=1', "ok;;'=1"],
    ['ok;x=1', 'ok;x=1'],
    ['ok ;=1', "ok ;'=1"],
    ['', ''],
  ];

  it.each(CASES)('%j becomes %j', (cell, expected) => {
    expect(neutraliseCell(cell)).toBe(expected);
  });

  it('leaves no segment starting with a formula character, whatever the separator', () => {
    for (const [cell] of CASES) {
      const out = neutraliseCell(cell);
      for (const separator of [',', ';', '\t', '|', '\r', '\n', /\r\n/]) {
        for (const segment of out.split(separator)) expect(segment.trimStart()).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
  });

  it('is stable: neutralising twice changes nothing more', () => {
    for (const [cell] of CASES) expect(neutraliseCell(neutraliseCell(cell))).toBe(neutraliseCell(cell));
  });
});
