import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from './bundle.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bundle-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string) {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), text);
}

describe('bundle', () => {
  it('runs TypeScript as plain JavaScript where each module keeps its own location', async () => {
    write(
      'entry.ts',
      `import { where } from './sub/where';
       export const here: string = import.meta.url;
       export const sub: string = where();
       export const lazy = () => import('./lazy');`,
    );
    write('sub/where.ts', 'export const where = (): string => import.meta.dirname;');
    write('lazy.ts', 'export const answer: number = 42;');
    const entry = pathToFileURL(path.join(dir, 'entry.ts'));
    const built = await bundle(entry);
    expect(built.pathname).toMatch(
      /node_modules\/\.cache\/sitemap-audit-bundles\/entry-[0-9a-f]{16}\/entry\.js$/,
    );
    const mod = (await import(built.href)) as {
      here: string;
      sub: string;
      lazy: () => Promise<{ answer: number }>;
    };
    expect(mod.here).toBe(entry.href);
    expect(mod.sub).toBe(path.join(dir, 'sub'));
    expect((await mod.lazy()).answer).toBe(42);

    // Named by content: the same sources give the same bundle, a changed one a new bundle.
    expect((await bundle(entry)).href).toBe(built.href);
    write('lazy.ts', 'export const answer: number = 43;');
    const rebuilt = await bundle(entry);
    expect(rebuilt.href).not.toBe(built.href);

    // A bundle unused for more than a week goes when another of the same name is built; the rest stay.
    const old = path.dirname(fileURLToPath(built));
    const weekAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(old, weekAgo, weekAgo);
    write('lazy.ts', 'export const answer: number = 44;');
    await bundle(entry);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fileURLToPath(rebuilt))).toBe(true);
  });

  it('fails with esbuild’s error when a module does not compile', async () => {
    write('broken.ts', 'export const x = ;');
    await expect(bundle(pathToFileURL(path.join(dir, 'broken.ts')))).rejects.toThrow(/Unexpected ";"/);
  });
});
