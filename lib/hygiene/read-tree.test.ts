// How the tree reader finds files in a local build folder (no network: a local index's children are
// read from beside it).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { urlset } from '@/lib/test-support/sitemap-sources';
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

describe('TreeReader reads only inside the folder it was given', { timeout: 10_000 }, () => {
  const SECRET = 's3cret-token';
  // Planted beside the build folder: a credentials file (one URL a line reads as a text sitemap, so
  // reading it would print it) and a sitemap whose one URL carries the secret.
  function plant(name: string, indexBody: string) {
    const caseDir = path.join(dir, name);
    const outside = folder(`${name}/outside`, {
      '.git-credentials': `https://user:${SECRET}@github.com\n`,
      'secret.xml': urlset(`<url><loc>https://a.example/${SECRET}</loc></url>`),
    });
    const build = folder(`${name}/build`, { 'sitemap.xml': indexBody });
    return { caseDir, outside, build, index: path.join(build, 'sitemap.xml') };
  }

  async function lintWith(input: string, options: { base?: string; maxFiles?: number } = {}) {
    const engine = new LintEngine();
    const reader = new TreeReader(engine, options);
    await reader.read([input]);
    const results = engine.finish();
    return { results, totals: engine.totals, reader, printed: JSON.stringify({ results, reader }) };
  }

  function refusal(results: Awaited<ReturnType<typeof lintWith>>['results']) {
    return results.find((r) => r.code === 'child_refused');
  }

  it('refuses a child whose name decodes to ../ (an encoded separator) and never reads it', async () => {
    const { index: file } = plant('encoded', index('https://a.example/..%2F.git-credentials'));
    const { results, totals, reader, printed } = await lintWith(file);
    expect(totals.files).toBe(1);
    expect(refusal(results)).toMatchObject({ severity: 'warning', count: 1 });
    expect(refusal(results)?.examples[0]).toMatchObject({
      url: 'https://a.example/..%2F.git-credentials',
      file,
      line: 1,
      detail: expect.stringContaining('encoded separator'),
    });
    expect(reader.refusedCount).toBe(1);
    expect(printed).not.toContain(SECRET);
  });

  it('refuses ../ children and an absolute path child, never opens a file:// one, reads the rest', async () => {
    const caseDir = path.join(dir, 'paths');
    const secretFile = path.join(caseDir, 'outside', '.git-credentials');
    const { index: file, build } = plant(
      'paths',
      index(
        '../outside/.git-credentials',
        secretFile,
        `file://${secretFile}`,
        'https://a.example/%2e%2e/outside/secret.xml',
        'https://a.example/part.xml',
      ),
    );
    writeFileSync(path.join(build, 'part.xml'), urlset('<url><loc>https://a.example/ok</loc></url>'));
    const { results, totals, reader, printed } = await lintWith(file, { base: 'https://a.example/x/' });
    // The index and part.xml: every other child refused, the lint went on.
    expect(totals).toMatchObject({ files: 2, urls: 1 });
    expect(refusal(results)?.count).toBe(3);
    const reasons = (refusal(results)?.examples ?? []).map((e) => [e.url, e.detail]);
    expect(reasons).toEqual([
      ['../outside/.git-credentials', expect.stringContaining('".."')],
      [secretFile, expect.stringContaining('absolute path')],
      ['https://a.example/%2e%2e/outside/secret.xml', expect.stringContaining('".."')],
    ]);
    expect(reader.refused).toHaveLength(3);
    // The reader itself drops a file: location (as every non-http one) before the walk sees it.
    expect(results.find((r) => r.code === 'loc_non_http')?.examples[0]?.url).toBe(`file://${secretFile}`);
    expect(printed).not.toContain(SECRET);
  });

  it('refuses a child that is a symbolic link leading outside the folder, follows one that stays in', async () => {
    const {
      index: file,
      build,
      outside,
    } = plant('link-out', index('https://a.example/a.xml', 'https://a.example/b.xml'));
    symlinkSync(path.join(outside, 'secret.xml'), path.join(build, 'a.xml'));
    writeFileSync(path.join(build, 'real-b.xml'), urlset('<url><loc>https://a.example/b</loc></url>'));
    symlinkSync('real-b.xml', path.join(build, 'b.xml'));
    const { results, totals, printed } = await lintWith(file);
    expect(totals).toMatchObject({ files: 2, urls: 1 });
    expect(refusal(results)?.examples).toEqual([
      expect.objectContaining({
        url: 'https://a.example/a.xml',
        detail: expect.stringContaining('symbolic link'),
      }),
    ]);
    expect(printed).not.toContain(SECRET);
  });

  it('maps a child by the tail of its URL path: sitemaps/a.xml below the index, else a.xml beside it', async () => {
    const root = folder('layout', {
      'sitemap.xml': index(
        'https://example.com/sitemaps/a.xml',
        'https://example.com/en/sitemap.xml',
        'https://example.com/fr/sitemap.xml',
        'https://example.com/deep/path/beside.xml',
      ),
      'beside.xml': urlset('<url><loc>https://example.com/beside</loc></url>'),
    });
    folder('layout/sitemaps', { 'a.xml': urlset('<url><loc>https://example.com/a</loc></url>') });
    folder('layout/en', { 'sitemap.xml': urlset('<url><loc>https://example.com/en/</loc></url>') });
    folder('layout/fr', { 'sitemap.xml': urlset('<url><loc>https://example.com/fr/</loc></url>') });
    const { results, totals, reader } = await lintWith(path.join(root, 'sitemap.xml'));
    expect(totals).toMatchObject({ files: 5, urls: 4, children: 4 });
    expect(refusal(results)).toBeUndefined();
    expect(reader.childrenNotFound).toBe(0);
  });

  it('walks a folder without following symbolic links: two links to "." finish at once', async () => {
    const root = folder('loops', {
      'sitemap.xml': urlset('<url><loc>https://a.example/</loc></url>'),
    });
    folder('loops/sub', { 'more.xml': urlset('<url><loc>https://a.example/more</loc></url>') });
    symlinkSync('.', path.join(root, 'loop-a'));
    symlinkSync('.', path.join(root, 'loop-b'));
    symlinkSync(path.join(dir, 'encoded', 'outside', 'secret.xml'), path.join(root, 'stolen.xml'));
    const { totals, reader, printed } = await lintWith(root);
    expect(totals).toMatchObject({ files: 2, urls: 2 });
    expect(reader.skippedCount).toBe(3);
    expect(reader.skipped.map((s) => path.basename(s.path))).toEqual(['loop-a', 'loop-b', 'stolen.xml']);
    expect(reader.skipped[0]?.reason).toContain('symbolic link');
    expect(printed).not.toContain(SECRET);
  });

  it('stops walking a folder at the file cap: entries past it are never even looked at', async () => {
    const root = folder('cap', {
      'a.xml': urlset('<url><loc>https://a.example/a</loc></url>'),
      'b.xml': urlset('<url><loc>https://a.example/b</loc></url>'),
      'c.xml': urlset('<url><loc>https://a.example/c</loc></url>'),
    });
    // Sorted after the files: the walk meets it only if it goes on past the cap.
    symlinkSync('.', path.join(root, 'z-loop'));
    const { totals, reader } = await lintWith(root, { maxFiles: 2 });
    expect(totals).toMatchObject({ files: 2, urls: 2 });
    expect(reader.skipped).toEqual([{ path: root, reason: expect.stringContaining('file cap (2') }]);
  });

  it('applies the cap to the files an index leads to as well', async () => {
    const root = folder('cap-index', {
      'index.xml': index('https://a.example/1.xml', 'https://a.example/2.xml', 'https://a.example/3.xml'),
      '1.xml': urlset('<url><loc>https://a.example/1</loc></url>'),
      '2.xml': urlset('<url><loc>https://a.example/2</loc></url>'),
      '3.xml': urlset('<url><loc>https://a.example/3</loc></url>'),
    });
    const { totals, reader } = await lintWith(path.join(root, 'index.xml'), { maxFiles: 2 });
    expect(totals).toMatchObject({ files: 2, urls: 1 });
    expect(reader.skippedCount).toBe(2);
    expect(reader.skipped[0]?.reason).toContain('file cap (2');
  });
});
