import { describe, expect, it } from 'vitest';
import { EntriesByFile } from './entries-by-file';
import type { StoredEntry } from './feed';

const entry = (fileId: number, position: number): StoredEntry => ({
  fileId,
  position,
  loc: `https://a.example/${fileId}/${position}`,
  lastmodRaw: null,
  lastmod: null,
  changefreq: null,
  priority: null,
  images: 0,
  videos: 0,
  news: 0,
  alternates: 0,
});

async function* batches(rows: StoredEntry[], size: number): AsyncGenerator<StoredEntry[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function positionsOf(split: EntriesByFile, fileId: number): Promise<number[]> {
  const seen: number[] = [];
  for await (const batch of split.of(fileId)) {
    for (const row of batch) {
      expect(row.fileId).toBe(fileId);
      seen.push(row.position);
    }
  }
  return seen;
}

describe('EntriesByFile', () => {
  // File 1: 5 entries, file 2 (skipped by the walk): 2, file 3: none, file 4: 4.
  const rows = [
    ...[1, 2, 3, 4, 5].map((p) => entry(1, p)),
    ...[1, 2].map((p) => entry(2, p)),
    ...[1, 2, 3, 4].map((p) => entry(4, p)),
  ];

  it.each([1, 2, 3, 5, 100])('gives each file its entries whole, in batches of %i', async (size) => {
    const split = new EntriesByFile(batches(rows, size)[Symbol.asyncIterator]());
    expect(await positionsOf(split, 1)).toEqual([1, 2, 3, 4, 5]);
    // File 2 is not asked for: its entries are passed over.
    expect(await positionsOf(split, 3)).toEqual([]);
    expect(await positionsOf(split, 4)).toEqual([1, 2, 3, 4]);
    expect(await positionsOf(split, 5)).toEqual([]);
  });
});
