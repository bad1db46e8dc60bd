// The walker's progress over several uploads: uploads are queued one at a time, so the total must count
// those not queued yet (it read "1 of 1" after the first of three, a full bar with two files to go).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkLimits } from './limits';
import { walkSitemapTree } from './sitemap-tree';

const urlset = (locs: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;

describe('walkSitemapTree progress', () => {
  it('counts the uploads still to read in the total', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tree-progress-'));
    const uploads = ['a', 'b', 'c'].map((name) => {
      const storedPath = path.join(dir, `${name}.xml`);
      writeFileSync(storedPath, urlset([`https://example.com/${name}`]));
      return { fileName: `${name}.xml`, storedPath };
    });
    const calls: [number, number][] = [];
    let nextId = 0;
    await walkSitemapTree(
      [],
      uploads,
      {
        createFile: async () => ++nextId,
        openEntries: async () => ({ write: async () => {}, close: async () => {} }),
        finishFile: async () => {},
        progress: async (done, total) => {
          calls.push([done, total]);
        },
      },
      { limits: walkLimits() },
    );
    expect(calls).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});
