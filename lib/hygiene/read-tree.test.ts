// How the tree reader finds files in a local build folder (no network: a local index's children are
// read from beside it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { urlset } from '@/lib/sitemap/test-sources';
import { LintEngine } from './engine';
import { TreeReader } from './read-tree';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hygiene-tree-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string | Buffer>): string {
  const root = path.join(dir, name);
  mkdirSync(root, { recursive: true });
  for (const [file, body] of Object.entries(files)) writeFileSync(path.join(root, file), body);
  return root;
}

const index = (...children: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children.map((c) => `<sitemap><loc>${c}</loc></sitemap>`).join('')}</sitemapindex>`;

async function lint(input: string) {
  const engine = new LintEngine();
  const reader = new TreeReader(engine);
  await reader.read([input]);
  return {
    counts: Object.fromEntries(engine.finish().map((r) => [r.code, r.count])),
    totals: engine.totals,
    reader,
  };
}

describe('TreeReader on a local folder', () => {
  it('flags a byte order mark at the start of the content, inside gzip too', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const body = (loc: string) => Buffer.from(urlset(`<url><loc>${loc}</loc></url>`));
    const root = folder('bom', {
      'plain.xml': Buffer.concat([bom, body('https://a.example/p')]),
      'packed.xml.gz': gzipSync(Buffer.concat([bom, body('https://a.example/g')])),
      'clean.xml.gz': gzipSync(body('https://a.example/c')),
    });
    const { counts, totals } = await lint(root);
    expect(totals).toMatchObject({ files: 3, urls: 3 });
    expect(counts).toEqual({ bom: 2 });
  });

  it('reads indexes first, so their children are judged against the URL the index gives them', async () => {
    // "a-part.xml" sorts before "index.xml": read on its own first, it would have no base at all.
    const root = folder('index-first', {
      'a-part.xml': urlset('<url><loc>/x</loc></url><url><loc>https://b.example/y</loc></url>'),
      'index.xml': index('https://a.example/a-part.xml'),
    });
    const { counts, totals } = await lint(root);
    expect(totals).toMatchObject({ files: 2, urls: 2, children: 1 });
    expect(counts).toEqual({ loc_relative: 1, wrong_host: 1 });
  });

  it('reads each file once, counts children with no file beside them, survives a malformed name', async () => {
    const root = folder('missing', {
      'index.xml': index(
        'https://a.example/gone.xml',
        'https://a.example/%E0%A4%A.xml',
        'https://a.example/index.xml',
      ),
    });
    const { totals, reader } = await lint(root);
    expect(totals).toMatchObject({ files: 1, children: 3 });
    expect(reader.childrenNotFound).toBe(2);
    expect(reader.unreadable).toEqual([]);
  });
});
