import { describe, expect, it } from 'vitest';
import type { InputFileCounts, InputFileRow } from './data';
import { describePlan, inputName, NameBook, planInputLayout, safeName, splitName } from './input-plan';

const file = (id: number, over: Partial<InputFileRow>): InputFileRow => ({
  id,
  parentId: null,
  url: null,
  finalUrl: null,
  uploadName: null,
  kind: 'urlset',
  status: 'ok',
  errorCode: null,
  gzipped: false,
  rootTag: 'urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
  listedLoc: null,
  listedLastmod: null,
  refused: 0,
  ...over,
});
const counts = (entries: number, removed = 0): InputFileCounts => ({
  entries,
  removed,
  replaced: 0,
  bytes: 100,
});
const options = {
  maxUrls: 50_000,
  maxBytes: 50 * 1024 * 1024,
  added: 0,
  base: null,
  siteBase: 'https://a.example/',
};

describe('names of the input layout', () => {
  it.each([
    ['sitemap.xml.gz', ['sitemap', '.xml.gz']],
    ['example.com.sitemap.01.xml', ['example.com.sitemap.01', '.xml']],
    ['cc-xmlSitemap.gz', ['cc-xmlSitemap', '.gz']],
    ['sitemap', ['sitemap', '']],
  ])('%s splits into stem and extension', (name, parts) => {
    expect(splitName(name)).toEqual(parts);
  });

  it('reads an upload name or the last path segment, and makes unsafe names safe', () => {
    expect(inputName({ uploadName: 'maps/blog posts.xml', url: null })).toBe('blog posts.xml');
    expect(inputName({ uploadName: null, url: 'https://a.example/en/sitemap.php?page=2' })).toBe(
      'sitemap.php',
    );
    expect(safeName('blog%20posts.xml')).toBe('blog-posts.xml');
    expect(safeName('../etc')).toBe('etc');
  });

  it('gives a clash another name and reports it as a rename', () => {
    const names = new NameBook();
    expect([names.take('sitemap.xml'), names.take('Sitemap.xml'), names.take('sitemap.xml')]).toEqual([
      'sitemap.xml',
      'Sitemap_2.xml',
      'sitemap_3.xml',
    ]);
    const rows = [
      file(1, { kind: 'robots', url: 'https://a.example/robots.txt' }),
      file(2, { parentId: 1, url: 'https://a.example/en/sitemap.xml' }),
      file(3, { parentId: 1, url: 'https://a.example/de/sitemap.xml' }),
    ];
    const plan = planInputLayout(
      rows,
      new Map([
        [2, counts(3)],
        [3, counts(2)],
      ]),
      options,
    );
    expect(plan.files.map((f) => [f.name, f.renamedFrom])).toEqual([
      ['sitemap.xml', null],
      ['sitemap_2.xml', 'sitemap.xml'],
    ]);
    const { warnings } = describePlan(plan, options);
    expect(warnings.map((w) => w.code)).toEqual(['renamed']);
  });

  it('drops a file every entry of which is pruned, and an index left with no child', () => {
    const rows = [
      file(1, { kind: 'index', uploadName: 'index.xml' }),
      file(2, { parentId: 1, uploadName: 'a.xml', listedLoc: 'https://a.example/a.xml' }),
    ];
    const plan = planInputLayout(rows, new Map([[2, counts(2, 2)]]), options);
    expect(plan.files.map((f) => [f.name, f.dropped])).toEqual([
      ['index.xml', true],
      ['a.xml', true],
    ]);
    expect(describePlan(plan, options).warnings.map((w) => w.code)).toEqual(['dropped']);
  });

  it('warns when the additions have no index to be listed in', () => {
    const plan = planInputLayout([file(1, { uploadName: 'a.xml' })], new Map([[1, counts(1)]]), {
      ...options,
      added: 2,
    });
    expect(plan.files.map((f) => f.name)).toEqual(['a.xml', 'sitemap-added.xml']);
    expect(describePlan(plan, { ...options, added: 2 }).warnings.map((w) => w.code)).toEqual(['not_listed']);
  });
});
