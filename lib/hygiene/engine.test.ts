// Every lint rule with a crafted case that fires it and a near miss that does not, through the product's
// own reader (lib/sitemap/parse) as the CLI uses it.
import robotsParser from 'robots-parser';
import { describe, expect, it } from 'vitest';
import { newParseStats, parseSitemapBatches } from '@/lib/sitemap/parse';
import type { ParseStats, SitemapEntry } from '@/lib/sitemap/types';
import { bytesSource, gzip, urlset } from '@/lib/test-support/sitemap-sources';
import { type EngineOptions, LintEngine } from './engine';
import { MAX_EXAMPLES } from './tally';
import type { FileMeta, LintResult } from './types';

const NOW = new Date('2026-06-01T00:00:00Z');

interface File {
  body: string | Uint8Array;
  meta?: Partial<FileMeta>;
}

function metaOf(over: Partial<FileMeta> = {}): FileMeta {
  return {
    label: 'https://a.example/sitemap.xml',
    requestedUrl: null,
    finalUrl: null,
    base: 'https://a.example/sitemap.xml',
    contentType: null,
    contentEncoding: null,
    name: 'sitemap.xml',
    bom: false,
    ...over,
  };
}

async function lint(files: (File | string)[], options: EngineOptions = {}): Promise<LintResult[]> {
  const engine = new LintEngine({ now: NOW, ...options });
  for (const file of files) {
    const { body, meta } = typeof file === 'string' ? { body: file, meta: undefined } : file;
    const stats = newParseStats();
    engine.beginFile(metaOf(meta));
    let error: Error | null = null;
    try {
      for await (const batch of parseSitemapBatches(bytesSource(body), stats)) engine.addEntries(batch);
    } catch (err) {
      error = err as Error;
    }
    engine.endFile(stats, error);
  }
  return engine.finish();
}

const counts = (results: LintResult[]) => Object.fromEntries(results.map((r) => [r.code, r.count]));
const urls = (...locs: string[]) => urlset(locs.map((loc) => `<url><loc>${loc}</loc></url>`).join('\n'));
const dated = (...lastmods: string[]) =>
  urlset(
    lastmods.map((d, i) => `<url><loc>https://a.example/p${i}</loc><lastmod>${d}</lastmod></url>`).join(''),
  );

type Case = [code: string, positive: (File | string)[], negative: (File | string)[], count?: number];

const CASES: Case[] = [
  ['file_unreadable', ['<urlset><url><loc>x</loc></urlset>'], [urls('https://a.example/')]],
  ['loc_relative', [urls('/about', 'contact')], [urls('https://a.example/about')], 2],
  [
    'loc_invalid',
    [urls('https://a.example/a b', 'https://exa mple.com/')],
    [urls('https://a.example/a%20b')],
    2,
  ],
  [
    'loc_non_http',
    [urls('javascript:alert(1)', 'data:text/html,x', 'mailto:a@b.c')],
    [urls('https://a.example/javascript')],
    3,
  ],
  [
    'loc_too_long',
    [urls(`https://a.example/${'x'.repeat(2100)}`)],
    [urls(`https://a.example/${'x'.repeat(2000)}`)],
  ],
  ['loc_missing', [urlset('<url><lastmod>2024-01-01</lastmod></url>')], [urls('https://a.example/')]],
  ['wrong_host', [urls('https://b.example/x', 'https://www.a.example/y')], [urls('https://a.example/x')], 2],
  [
    'http_on_https',
    [urls('http://a.example/x')],
    [{ body: urls('http://a.example/x'), meta: { base: 'http://a.example/' } }],
  ],
  [
    'trailing_slash_mixed',
    [urls('https://a.example/blog/a/', 'https://a.example/blog/b/', 'https://a.example/blog/c')],
    [urls('https://a.example/blog/a/', 'https://a.example/shop/b', 'https://a.example/blog/feed.xml')],
    1,
  ],
  [
    'duplicate_in_file',
    [urls('https://a.example/x', 'https://a.example/x', 'https://A.example/x')],
    [urls('https://a.example/x', 'https://a.example/x/')],
    2,
  ],
  [
    'duplicate_across_files',
    [urls('https://a.example/x'), urls('https://a.example/x')],
    [urls('https://a.example/x'), urls('https://a.example/y')],
  ],
  [
    'lastmod_invalid',
    [dated('January 15, 2024', '2024-13-01')],
    [dated('2024-01-15', '2024-01-15T10:00:00+02:00')],
    2,
  ],
  ['lastmod_before_1970', [dated('1969-12-31')], [dated('1970-01-01')]],
  ['lastmod_future', [dated('2026-06-03')], [dated('2026-06-01T20:00:00Z')]],
  [
    'lastmod_uniform',
    [dated(...Array(19).fill('2026-05-01'), '2026-01-01')],
    [
      dated(...Array(18).fill('2026-05-01'), '2026-01-01', '2026-01-02'),
      dated(...Array(9).fill('2026-05-01')),
    ],
  ],
  [
    'faceted_url',
    [urls('https://a.example/shoes?color=red&amp;size=4')],
    [urls('https://a.example/shoes', 'https://a.example/?s=x')],
  ],
  [
    'search_url',
    [urls('https://a.example/search/shoes', 'https://a.example/?s=shoes', 'https://a.example/find?q=a')],
    [urls('https://a.example/research')],
    3,
  ],
  [
    'pagination_url',
    [urls('https://a.example/blog/page/2', 'https://a.example/list?page=3')],
    [urls('https://a.example/list?page=1', 'https://a.example/page/about')],
    2,
  ],
  [
    'priority_present',
    [urlset('<url><loc>https://a.example/</loc><priority>0.8</priority></url>')],
    [urls('https://a.example/')],
  ],
  [
    'changefreq_present',
    [urlset('<url><loc>https://a.example/</loc><changefreq>daily</changefreq></url>')],
    [urls('https://a.example/')],
  ],
  [
    'sitemap_redirected',
    [
      {
        body: urls('https://a.example/'),
        meta: { requestedUrl: 'http://a.example/sitemap.xml', finalUrl: 'https://a.example/sitemap.xml' },
      },
    ],
    [
      {
        body: urls('https://a.example/'),
        meta: { requestedUrl: 'https://a.example/sitemap.xml', finalUrl: 'https://a.example/sitemap.xml' },
      },
    ],
  ],
  [
    'content_type_not_xml',
    [{ body: urls('https://a.example/'), meta: { contentType: 'text/html; charset=utf-8' } }],
    [
      { body: urls('https://a.example/'), meta: { contentType: 'application/xml' } },
      { body: 'https://a.example/\n', meta: { contentType: 'text/plain' } },
      {
        body: gzip(urls('https://a.example/')),
        meta: { contentType: 'application/x-gzip', name: 's.xml.gz' },
      },
    ],
  ],
  [
    'gzip_mismatch',
    [
      { body: urls('https://a.example/'), meta: { name: 'sitemap.xml.gz' } },
      { body: gzip(urls('https://a.example/')), meta: { name: 'sitemap.xml' } },
    ],
    [
      { body: gzip(urls('https://a.example/')), meta: { name: 'sitemap.xml.gz' } },
      { body: urls('https://a.example/'), meta: { name: 'sitemap.xml.gz', contentEncoding: 'gzip' } },
    ],
    2,
  ],
  ['bom', [{ body: urls('https://a.example/'), meta: { bom: true } }], [urls('https://a.example/')]],
  [
    'namespace_problem',
    [
      '<urlset><url><loc>https://a.example/</loc></url></urlset>',
      '<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://a.example/</loc></url></urlset>',
    ],
    [urls('https://a.example/')],
    2,
  ],
  ['reader_warning', [`${urls('https://a.example/')}<junk/>`], [urls('https://a.example/')]],
];

describe('every rule fires on its crafted case and not on its near miss', () => {
  it.each(CASES)('%s', async (code, positive, negative, count = 1) => {
    const fired = counts(await lint(positive));
    expect(fired[code]).toBe(count);
    expect(counts(await lint(negative))[code]).toBeUndefined();
  });

  it('covers every rule of the catalogue', async () => {
    const { RULES } = await import('./rules');
    const covered = new Set([
      ...CASES.map(([code]) => code),
      'robots_disallowed',
      'file_too_many_urls',
      'file_too_large',
      'index_too_many_children',
      'child_refused', // the local walk refuses children: read-tree.test.ts
    ]);
    expect(Object.keys(RULES).filter((code) => !covered.has(code))).toEqual([]);
  });
});

describe('rules judged on what the reader yields and counts', () => {
  it('robots_disallowed: URLs the site disallows for Googlebot (wildcards, Allow beating Disallow)', async () => {
    const robots = robotsParser(
      'https://a.example/robots.txt',
      'User-agent: *\nDisallow: /private\nDisallow: /*?sort=\nAllow: /private/open\n',
    );
    const results = await lint(
      [
        urls(
          'https://a.example/private/x',
          'https://a.example/list?sort=1',
          'https://a.example/private/open',
          'https://a.example/ok',
        ),
      ],
      { robots },
    );
    expect(counts(results).robots_disallowed).toBe(2);
    expect(counts(await lint([urls('https://a.example/ok')], { robots })).robots_disallowed).toBeUndefined();
  });

  function entries(count: number, type: 'url' | 'sitemap'): SitemapEntry[] {
    return Array.from({ length: count }, (_, i) =>
      type === 'url'
        ? {
            type,
            loc: `https://a.example/${i}`,
            lastmodRaw: null,
            lastmod: null,
            changefreq: null,
            priority: null,
            images: 0,
            videos: 0,
            news: 0,
            alternates: 0,
            position: i + 1,
            line: i + 2,
          }
        : {
            type,
            loc: `https://a.example/s${i}.xml`,
            lastmodRaw: null,
            lastmod: null,
            position: i + 1,
            line: i + 2,
          },
    );
  }

  function limits(count: number, type: 'url' | 'sitemap', bytes = 0): Record<string, number> {
    const engine = new LintEngine({ now: NOW });
    engine.beginFile(metaOf());
    const children = engine.addEntries(entries(count, type));
    const stats: ParseStats = {
      ...newParseStats(),
      uncompressedBytes: bytes,
      kind: type === 'url' ? 'urlset' : 'index',
    };
    engine.endFile(stats, null);
    expect(children).toHaveLength(type === 'sitemap' ? count : 0);
    return counts(engine.finish());
  }

  it('file_too_many_urls: 50,001 URLs fire, 50,000 do not', () => {
    expect(limits(50_001, 'url').file_too_many_urls).toBe(1);
    expect(limits(50_000, 'url').file_too_many_urls).toBeUndefined();
  });

  it('index_too_many_children: 50,001 children fire, 50,000 do not', () => {
    expect(limits(50_001, 'sitemap').index_too_many_children).toBe(1);
    expect(limits(50_000, 'sitemap').index_too_many_children).toBeUndefined();
  });

  it('file_too_large: over 52,428,800 uncompressed bytes', () => {
    expect(limits(1, 'url', 52_428_801).file_too_large).toBe(1);
    expect(limits(1, 'url', 52_428_800).file_too_large).toBeUndefined();
  });
});

describe('relative locations and examples', () => {
  it('resolves relative locations against the base so the other rules still judge them', async () => {
    const results = await lint([
      { body: urls('/search?q=x', '/a', '/a'), meta: { base: 'https://a.example/sitemap.xml' } },
    ]);
    expect(counts(results)).toMatchObject({ loc_relative: 3, search_url: 1, duplicate_in_file: 1 });
    const relative = results.find((r) => r.code === 'loc_relative');
    expect(relative?.examples[0]).toEqual({
      url: '/search?q=x',
      file: 'https://a.example/sitemap.xml',
      line: 3,
    });
  });

  it('without a base, relative locations are only an error: nothing else is guessed', async () => {
    const results = await lint([{ body: urls('/a', '/a', 'https://b.example/'), meta: { base: null } }]);
    expect(counts(results)).toEqual({ loc_relative: 2 });
  });

  it('keeps at most 20 examples per rule, however many entries fire it', async () => {
    const many = urls(...Array.from({ length: 500 }, (_, i) => `/p${i}`));
    const relative = (await lint([many])).find((r) => r.code === 'loc_relative');
    expect(relative?.count).toBe(500);
    expect(relative?.examples).toHaveLength(MAX_EXAMPLES);
  });

  it('orders errors first and gives each rule its severity and fix', async () => {
    const results = await lint([
      urlset('<url><loc>/a</loc><priority>1</priority></url><url><loc>https://a.example/?x=1</loc></url>'),
    ]);
    expect(results.map((r) => [r.code, r.severity])).toEqual([
      ['loc_relative', 'error'],
      ['faceted_url', 'warning'],
      ['priority_present', 'info'],
    ]);
    expect(results.every((r) => r.fix.length > 20)).toBe(true);
  });

  it('reports an unreadable file at the line of its cause', async () => {
    const broken = urlset(
      '<url><loc>https://a.example/?a=1&b=2</loc></url>\n<url><loc>https://a.example/</loc></url>',
    );
    const unreadable = (await lint([broken])).find((r) => r.code === 'file_unreadable');
    expect(unreadable?.examples[0]).toMatchObject({
      line: 3,
      detail: expect.stringContaining('unescaped "&"'),
    });
  });
});

describe('a Google News sitemap and the duplicate rules', () => {
  const news = (...locs: string[]) =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">${locs
      .map(
        (loc) =>
          `<url><loc>${loc}</loc><news:news><news:publication><news:name>A</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-05-30</news:publication_date><news:title>T</news:title></news:news></url>`,
      )
      .join('')}</urlset>`;
  const article = 'https://a.example/2026/05/30/story';

  it('is no duplicate of the regular sitemap that lists the same articles, in either order', async () => {
    expect(counts(await lint([news(article), urls(article)]))).toEqual({});
    expect(counts(await lint([urls(article), news(article)]))).toEqual({});
  });

  it('repeats among news entries are duplicates all the same', async () => {
    expect(counts(await lint([news(article, article)]))).toEqual({ duplicate_in_file: 1 });
    expect(counts(await lint([news(article), news(article)]))).toEqual({ duplicate_across_files: 1 });
  });
});

describe('a file without a base of its own', () => {
  const local = (body: string) => ({ body, meta: { base: null } });

  it('is judged against the site of the first absolute location read', async () => {
    const results = await lint([
      local(urls('https://a.example/', 'http://a.example/old', 'https://b.example/x', '/relative')),
    ]);
    expect(counts(results)).toEqual({ http_on_https: 1, wrong_host: 1, loc_relative: 1 });
  });

  it('keeps a relative location read before any absolute one unresolved', async () => {
    expect(counts(await lint([local(urls('/first', 'https://a.example/'))]))).toEqual({ loc_relative: 1 });
  });
});

describe('an index whose children live on another host', () => {
  it('does not make the pages read as on the wrong host', async () => {
    const index =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://cdn.example/s1.xml</loc></sitemap></sitemapindex>';
    const results = await lint([
      { body: index, meta: { base: null } },
      { body: urls('https://a.example/', 'https://a.example/p'), meta: { base: null } },
    ]);
    expect(counts(results)).toEqual({});
  });
});
