import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InflateBudget } from '@/lib/inflate/budget';
import { fixturePath, readFixture } from '@/lib/test-support/fixtures';
import { buildZip, type TestZipEntry } from './test-zip';
import type { DrilldownExport } from './types';
import { readGscZipExports, visitGscZip } from './zip';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gsc-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
function zipFile(entries: TestZipEntry[]): string {
  const file = path.join(dir, `${++count}.zip`);
  writeFileSync(file, buildZip(entries));
  return file;
}

const fixtureEntries = (folder: string, into: string): TestZipEntry[] =>
  readdirSync(fixturePath(`gsc/${folder}`)).map((name) => ({
    name: `${into}${name}`,
    data: readFixture(`gsc/${folder}/${name}`),
  }));

describe('a zip of Search Console exports', () => {
  it('keeps two exports in folders apart and lists an unrelated file as ignored', async () => {
    const file = zipFile([
      { name: 'coverage/', data: '', store: true },
      ...fixtureEntries('cowboykimono-coverage', 'coverage/'),
      ...fixtureEntries('mikenelson-indexing-overview', 'overview/'),
      { name: 'screenshot.png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]), store: true },
      { name: '__MACOSX/coverage/._Table.csv', data: 'x', store: true },
      { name: 'coverage/notes.csv', data: 'what,why\nall,good\n' },
    ]);
    const { exports, ignored, errors } = await readGscZipExports(file, 'gsc.zip');
    expect(errors).toEqual([]);
    expect(exports.map((e) => [e.folder, e.kind])).toEqual([
      ['coverage', 'drilldown'],
      ['overview', 'overview'],
    ]);
    const drilldown = exports[0] as DrilldownExport;
    expect(drilldown.table?.rows).toHaveLength(542);
    expect(drilldown.chartTotal).toBe(542);
    expect(drilldown.description.issue).toBe('Crawled - currently not indexed');
    expect(ignored.map((f) => [f.name, f.reason.replace(/ \(.*$/, '').slice(0, 40)])).toEqual([
      ['screenshot.png', 'not a CSV file'],
      ['__MACOSX/coverage/._Table.csv', 'macOS metadata'],
      ['coverage/notes.csv', 'expected a Search Console export'],
    ]);
  });

  it('reads entries stored as well as deflated, names with spaces and non-ASCII folders', async () => {
    const file = zipFile(
      fixtureEntries('dhmguide-indexing-overview', 'Übersicht 2025/').map((e) => ({ ...e, store: true })),
    );
    const { exports, errors } = await readGscZipExports(file, 'gsc.zip');
    expect(errors).toEqual([]);
    expect(exports.flatMap((e) => e.files).sort()).toEqual([
      'Übersicht 2025/Critical issues.csv',
      'Übersicht 2025/Non-critical issues.csv',
    ]);
  });
});

describe('what the caller does with each export', () => {
  it("gets each folder's exports before the next folder inflates, and its own failures back unchanged", async () => {
    const file = zipFile([
      ...fixtureEntries('cowboykimono-coverage', 'a/'),
      ...fixtureEntries('cowboykimono-404_errors', 'b/'),
    ]);
    const seen: string[] = [];
    const budget = new InflateBudget({
      limit: 10 * 1024 * 1024,
      setting: 'GSC_IMPORT_MAX_BYTES',
      scope: 'x',
    });
    const spentAt: number[] = [];
    const read = await visitGscZip(file, 'two.zip', {
      budget,
      visit: async (exp) => {
        seen.push(exp.folder);
        spentAt.push(budget.spent);
      },
    });
    expect(read.errors).toEqual([]);
    expect(seen).toEqual(['a', 'b']);
    // When folder a was handed over, folder b had not been inflated yet.
    expect(spentAt[0]).toBeLessThan(spentAt[1] as number);
    const failure = new Error('the database went away');
    await expect(
      visitGscZip(file, 'two.zip', {
        budget: new InflateBudget({ limit: 10 * 1024 * 1024, setting: 'GSC_IMPORT_MAX_BYTES', scope: 'x' }),
        visit: async () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
  });
});

describe('a zip is refused, as one error named after it', () => {
  const refusalOf = async (file: string, limits = {}, budget?: InflateBudget) => {
    const { errors, exports } = await readGscZipExports(file, 'upload.zip', { zip: limits }, budget);
    expect(exports).toEqual([]);
    expect(errors).toHaveLength(1);
    return errors[0]?.message;
  };

  it('a zip bomb: 8 MiB of zeros in a few KB', async () => {
    const file = zipFile([{ name: 'Table.csv', data: Buffer.alloc(8 * 1024 * 1024, 0x30) }]);
    expect(await refusalOf(file, {})).toMatch(
      /^upload\.zip: Table\.csv inflates \d+:1 \(to 8\.0 MiB\), more than the 100:1 an export does; refused as a zip bomb$/,
    );
  });

  it('a zip bomb that declares a small size: reading stops at the declared size', async () => {
    const file = zipFile([
      { name: 'Table.csv', data: Buffer.alloc(8 * 1024 * 1024, 0x30), declaredSize: 1000 },
    ]);
    expect(await refusalOf(file)).toMatch(
      /^upload\.zip: the zip cannot be read \(too many bytes in the stream\. expected 1000\. got at least \d+\)$/,
    );
  });

  it("too many entries, too large an entry, more than the import's budget", async () => {
    const many = zipFile(
      Array.from({ length: 201 }, (_, i) => ({ name: `f${i}.csv`, data: 'a', store: true })),
    );
    expect(await refusalOf(many)).toBe('upload.zip: the zip has 201 entries, more than the 200 accepted');
    const big = zipFile([{ name: 'Table.csv', data: Buffer.alloc(3000, 0x41), store: true }]);
    expect(await refusalOf(big, { maxEntryBytes: 2048 })).toBe(
      'upload.zip: Table.csv is 3 KiB uncompressed, more than the 2 KiB accepted',
    );
    const folder = zipFile([
      { name: 'x/a.csv', data: Buffer.alloc(3000, 0x41), store: true },
      { name: 'x/b.csv', data: Buffer.alloc(3000, 0x41), store: true },
    ]);
    expect(await refusalOf(folder, { maxFolderBytes: 5000 })).toBe(
      'upload.zip: the folder x/ holds 6 KiB of CSV files, more than the 5 KiB one folder may (its files are read together): give each export a folder of its own',
    );
    const total = zipFile([
      { name: 'a.csv', data: Buffer.alloc(3000, 0x41), store: true },
      { name: 'b.csv', data: Buffer.alloc(3000, 0x41), store: true },
    ]);
    const budget = new InflateBudget({ limit: 5000, setting: 'GSC_IMPORT_MAX_BYTES', scope: 'one import' });
    expect(await refusalOf(total, {}, budget)).toBe(
      'upload.zip: the zip declares 5.9 KiB uncompressed, more than the 4.9 KiB left of the 4.9 KiB of uncompressed data one import may hold (GSC_IMPORT_MAX_BYTES)',
    );
  });

  it('a zip bomb of many entries each just under the per-entry floor: judged as a whole', async () => {
    // 49 folders of 1 MiB (exactly the floor, so no entry is judged on its own) of one repeated line.
    const line = 'https://www.example.com/page,2026-11-01\n';
    const table = Buffer.from(
      `URL,Last crawled\n${line.repeat(Math.floor((1024 * 1024 - 17) / line.length))}`,
    );
    const padded = Buffer.concat([table, Buffer.alloc(1024 * 1024 - table.length, 0x0a)]);
    const file = zipFile(
      Array.from({ length: 49 }, (_, i) => ({ name: `export-${i}/Table.csv`, data: padded })),
    );
    expect(await refusalOf(file)).toMatch(
      /^upload\.zip: the zip inflates \d+:1 as a whole \(\d+ KiB to 49 MiB\), more than the 100:1 Search Console's exports do; refused as a zip bomb$/,
    );
  });

  it('counts the bytes it inflates, never trusting those declared: a lie stops within a chunk', async () => {
    // 4 MiB that compress about 3:1 (under every ratio), declaring 1,000 bytes: the directory passes the
    // budget, the bytes do not.
    const noisy = Buffer.from(
      Array.from(
        { length: 120_000 },
        (_, i) => `https://example.com/${((i * 7919) % 1_000_003).toString(36)}\n`,
      ).join(''),
    );
    const file = zipFile([{ name: 'a/Table.csv', data: noisy, declaredSize: 1000 }]);
    const budget = new InflateBudget({ limit: 10_000, setting: 'GSC_IMPORT_MAX_BYTES', scope: 'one import' });
    expect(await refusalOf(file, {}, budget)).toMatch(
      /^upload\.zip: the zip cannot be read \(too many bytes/,
    );
    expect(budget.spent).toBeLessThanOrEqual(1000);
    const honest = zipFile([{ name: 'a/Table.csv', data: noisy }]);
    expect(await refusalOf(honest, {}, budget)).toBe(
      `upload.zip: the zip declares ${(noisy.length / 1024 / 1024).toFixed(1)} MiB uncompressed, more than the 9.8 KiB left of the 9.8 KiB of uncompressed data one import may hold (GSC_IMPORT_MAX_BYTES)`,
    );
  });

  it('a path that climbs out of the zip', async () => {
    const file = zipFile([{ name: '../../etc/Table.csv', data: 'URL,Last crawled\n' }]);
    expect(await refusalOf(file)).toBe(
      'upload.zip: the zip cannot be read (invalid relative path: ../../etc/Table.csv)',
    );
  });

  it('a file that is not a zip, and a zip with no CSV or no export in it', async () => {
    const notZip = path.join(dir, 'not.zip');
    writeFileSync(notZip, 'URL,Last crawled\n');
    expect(await refusalOf(notZip)).toMatch(
      /^upload\.zip: not a readable zip file \(End of central directory/,
    );
    const noCsv = zipFile([{ name: 'a.png', data: 'x' }]);
    expect(await refusalOf(noCsv)).toBe('upload.zip: the zip holds no CSV file (only a.png)');
    const noExport = zipFile([{ name: 'a.csv', data: 'foo,bar\n' }]);
    expect(await refusalOf(noExport)).toMatch(
      /^upload\.zip: the zip holds no Search Console export \(a\.csv: expected/,
    );
  });
});
