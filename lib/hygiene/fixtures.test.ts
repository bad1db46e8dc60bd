// Every sitemap of the shared fixture corpus linted as the CLI reads it (a local file, its index's
// children read from beside it): no crash, and the entry counts its MANIFEST (expected.json) states.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, fixturesDir } from '@/lib/test-support/fixtures';
import { LintEngine } from './engine';
import { TreeReader } from './read-tree';

const expected = JSON.parse(readFileSync(fixturePath('expected.json'), 'utf8')) as Record<
  string,
  { expected?: string }
>;

const SITEMAP_FOLDERS = ['xml', 'text', 'gzip', 'index', 'large', 'malformed', 'extensions'];
const files = SITEMAP_FOLDERS.flatMap((folder) =>
  readdirSync(path.join(fixturesDir, folder), { recursive: true, encoding: 'utf8' })
    .map((name) => `${folder}/${name}`)
    .filter((name) => !/(\.json|\.golden\.txt|expected-output\.txt|robots\.txt)$/.test(name))
    .filter((name) => /\.[a-z0-9]+$/i.test(name) && !name.endsWith('/')),
).sort();

async function lintFixture(relative: string, base?: string) {
  const engine = new LintEngine({ now: new Date('2026-06-01T00:00:00Z') });
  const reader = new TreeReader(engine, { base: base ?? null });
  await reader.read([fixturePath(relative)]);
  const results = engine.finish();
  return {
    totals: engine.totals,
    results,
    counts: Object.fromEntries(results.map((r) => [r.code, r.count])),
    reader,
  };
}

/** "2 URLs; …", "36,005 URLs", "3 sitemaps" → what the MANIFEST counts, when it states a count. */
function stated(relative: string): { urls?: number; children?: number } {
  const match = /^(\d[\d,]*) (URLs?|sitemaps?|child sitemaps)\b/.exec(expected[relative]?.expected ?? '');
  if (!match) return {};
  const count = Number((match[1] as string).replace(/,/g, ''));
  return /^URL/.test(match[2] as string) ? { urls: count } : { children: count };
}

describe('the fixture corpus', () => {
  it('is found (not vacuous)', () => {
    expect(files.length).toBeGreaterThan(80);
    expect(files.filter((file) => stated(file).urls !== undefined).length).toBeGreaterThan(50);
  });

  it.each(files)('%s', async (relative) => {
    const { totals, reader } = await lintFixture(relative);
    expect(totals.files).toBeGreaterThanOrEqual(1);
    const { urls, children } = stated(relative);
    // An index's children are read from beside it when present: its own count is the children.
    if (children !== undefined) expect(totals.children).toBe(children);
    else if (urls !== undefined && totals.children === 0) expect(totals.urls).toBe(urls);
    if (totals.filesFailed === 0) expect(reader.unreadable).toEqual([]);
  });
});

describe('what the MANIFEST says about particular fixtures', () => {
  it('refinebio-sitemap-2: 12,641 entries, 12,523 distinct, 118 duplicated', async () => {
    const { totals, counts } = await lintFixture('large/refinebio-sitemap-2.xml');
    expect(totals).toMatchObject({ urls: 12_641, distinctUrls: 12_523 });
    expect(counts.duplicate_in_file).toBe(118);
  });

  it('breakroom: 50,000 URLs are not over the limit; the 100k text list is', async () => {
    expect(
      (await lintFixture('large/breakroom-sitemap-50000-urls.xml')).counts.file_too_many_urls,
    ).toBeUndefined();
    const list = await lintFixture('large/sm-medium-list-100k.txt.gz');
    expect(list.totals.urls).toBe(100_000);
    expect(list.counts.file_too_many_urls).toBe(1);
  });

  it('squirrelscan bad sitemap: missing loc, relative, cross-domain, future and bad dates', async () => {
    const { counts } = await lintFixture(
      'malformed/squirrelscan-bad-sitemap-audit-rules.xml',
      'https://example.com/',
    );
    expect(counts).toMatchObject({
      loc_missing: 1,
      loc_relative: 1,
      wrong_host: 1,
      lastmod_future: 1,
      lastmod_invalid: 1,
    });
  });

  it('squirrelscan good sitemap: no findings but the informational ones', async () => {
    const { results } = await lintFixture('xml/squirrelscan-good-sitemap.xml', 'https://example.com/');
    expect(results.filter((r) => r.severity !== 'info')).toEqual([]);
  });

  it('a local index reads its children from beside it (aafeher sitemapindex-1: 3 children, 6 URLs)', async () => {
    const { totals, reader } = await lintFixture('index/aafeher-minisite/sitemapindex-1.xml');
    expect(totals).toMatchObject({ files: 4, children: 3, urls: 6 });
    expect(reader.childrenNotFound).toBe(0);
  });

  it('a local index whose children are not beside it says so and fetches nothing', async () => {
    const { totals, reader } = await lintFixture('index/webignition-sitemap.index.xml');
    expect(totals).toMatchObject({ files: 1, children: 3 });
    expect(reader.childrenNotFound).toBe(3);
  });

  it('a not-actually-gzipped .gz is read, and flagged as a gzip mismatch', async () => {
    const { totals, counts } = await lintFixture('gzip/adv-regular_sitemap-not-actually-gzipped.xml.gz');
    expect(totals.urls).toBe(5);
    expect(counts.gzip_mismatch).toBe(1);
  });
});
