// The corrected set in its default layout (layout=input) through the real routes: real sitemaps uploaded
// and ingested by the product's pipeline, the set built with no decision must give back every file with
// the same elements, attributes and text; then decisions (prune, url variant with hreflang, add, split,
// a file left empty, an unsafe name) change only what they say.
import { readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import type { SitemapSetSummaryDto } from '@/lib/sitemap-set/schema';
import { testCaller } from '@/lib/test-support/auth';
import { fixturePath, readFixture } from '@/lib/test-support/fixtures';
import { reconciledAuditOf } from '@/lib/test-support/run-audit';
import { unzip } from '@/lib/test-support/unzip';
import { POST as decide } from './audits/[id]/decisions/route';
import { GET as getSummary } from './audits/[id]/sitemap-set/route';
import { GET as getZip } from './audits/[id]/sitemap-set.zip/route';

const reviewer = await testCaller('reviewer');
const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

async function zipOf(auditId: string, query = '') {
  const res = await getZip(viewer.request(`${base}/${auditId}/sitemap-set.zip?${query}`), ctx(auditId));
  expect(res.status).toBe(200);
  return unzip(Buffer.from(await res.arrayBuffer()));
}

async function summaryOf(auditId: string, query = ''): Promise<SitemapSetSummaryDto> {
  const res = await getSummary(viewer.request(`${base}/${auditId}/sitemap-set?${query}`), ctx(auditId));
  expect(res.status).toBe(200);
  return (await res.json()) as SitemapSetSummaryDto;
}

const isGzip = (bytes: Buffer) => bytes[0] === 0x1f && bytes[1] === 0x8b;
const plain = (bytes: Buffer) => (isGzip(bytes) ? gunzipSync(bytes) : bytes).toString('utf8');

interface Node {
  name: string;
  attributes: [string, string][];
  text: string;
  children: Node[];
}

/** An XML document as a tree of elements: qualified names, attributes (sorted), trimmed text, children
 * in order. Comments, processing instructions and blank text between elements are layout, not content. */
function tree(xml: string): Node {
  const parser = new SaxesParser({ xmlns: false });
  const stack: Node[] = [];
  let root: Node | null = null;
  parser.on('opentag', (tag) => {
    const node: Node = {
      name: tag.name,
      attributes: Object.entries(tag.attributes as Record<string, string>).sort(([a], [b]) =>
        a < b ? -1 : 1,
      ),
      text: '',
      children: [],
    };
    stack.at(-1)?.children.push(node);
    root ??= node;
    stack.push(node);
  });
  const onText = (text: string) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const node = stack.pop() as Node;
    node.text = node.text.trim();
  });
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** A <sitemap> element inside a <urlset> is not a page and the protocol does not allow it there: the set
 * does not write it back (the rest of the file must be the same). */
function withoutStraySitemaps(root: Node): Node {
  if (!root.name.endsWith('urlset')) return root;
  return { ...root, children: root.children.filter((c) => !c.name.endsWith('sitemap')) };
}

/** A text sitemap's URL lines (what the product reads as entries). */
const urlLines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => /^https?:\/\//i.test(l));

/** Uploads `names` from a fixture folder as one audit and checks that the set with no decision writes
 * each back with the same name, compression and content. */
async function roundTrip(folder: string, names: string[]) {
  const sitemaps = Object.fromEntries(names.map((n) => [n, readFixture(`${folder}/${n}`)]));
  const auditId = await reconciledAuditOf(`Round trip ${folder}`, {
    sitemaps,
    crawl: [JSON.stringify({ url: 'https://unrelated.example/', status: 200, indexable: true })],
  });
  const { rows } = await pool().query<{ upload_name: string; status: string; kind: string }>(
    'SELECT upload_name, status, kind FROM sitemap_files WHERE audit_id = $1 ORDER BY position',
    [auditId],
  );
  // Only uploads: a child a urlset names (tra-sitemap-hreflang.xml's stray <sitemap>) is not fetched here.
  expect(rows.filter((r) => r.status !== 'ok' && r.upload_name !== null)).toEqual([]);
  const summary = await summaryOf(auditId);
  expect(summary.layout).toBe('input');
  expect(summary.warnings).toEqual([]);
  expect(summary.files.filter((f) => f.status !== 'unchanged')).toEqual([]);
  const files = await zipOf(auditId);
  expect([...files.keys()].sort()).toEqual([...names, 'summary.json'].sort());
  for (const name of names) {
    const input = sitemaps[name] as Buffer;
    const output = files.get(name) as Buffer;
    expect(isGzip(output), `${name} keeps its compression`).toBe(isGzip(input));
    const kind = rows.find((r) => r.upload_name === name)?.kind;
    if (kind === 'text') expect(urlLines(plain(output)), name).toEqual(urlLines(plain(input)));
    else expect(tree(plain(output)), name).toEqual(withoutStraySitemaps(tree(plain(input))));
  }
  return { auditId, files };
}

const FEEDS = new Set([
  'cc-atom.xml',
  'cc-feed.rss',
  'cc-xmlRss_pubDate.xml',
  'usp-rss2.0.xml',
  'usp-atom1.0.xml',
  'usp-atom0.3.xml',
]);
const listed = (folder: string, keep: (name: string) => boolean) =>
  readdirSync(fixturePath(folder)).filter(keep).sort();

describe('the corrected set with no decision gives back every real sitemap as read (layout=input)', () => {
  it('hreflang, image, video, news, PageMap and mobile extensions, CDATA and escaped text', async () => {
    const names = listed('extensions', (n) => n.endsWith('.xml'));
    expect(names).toContain('cc-sitemap-links.xml');
    expect(names).toContain('cc-sitemap-news.xml');
    await roundTrip('extensions', names);
  }, 60_000);

  it('plain, prefixed, legacy-namespace and oddly formatted urlsets', async () => {
    const names = listed('xml', (n) => n.endsWith('.xml') && !FEEDS.has(n));
    expect(names).toContain('cc-sitemap.ns.xml');
    await roundTrip('xml', names);
  }, 60_000);

  it('text sitemaps and gzipped files keep their format and compression under their names', async () => {
    await roundTrip(
      'text',
      listed('text', (n) => n.endsWith('.txt')),
    );
    await roundTrip('gzip', [
      'adv-regular_sitemap-not-actually-gzipped.xml.gz',
      'adv-zipped_sitemap.xml.gz',
      'cc-sitemap.txt.gz',
      'cc-xmlSitemap.gz',
      'tra-sitemaps.org-sitemap.xml.gz',
    ]);
  }, 60_000);

  it('index trees: the same index over the same children, lastmods kept, gzipped or not', async () => {
    const tree1 = ['sitemapindex-1.xml', 'sitemap-01.xml', 'sitemap-02.xml', 'sitemap-03.xml'];
    await roundTrip('index/aafeher-minisite', tree1);
    await roundTrip('index/aafeher-minisite', [
      'sitemapindex-1.xml.gz',
      'sitemap-01.xml.gz',
      'sitemap-02.xml.gz',
      'sitemap-03.xml.gz',
    ]);
    await roundTrip('index/aafeher-minisite', [
      'sitemap-image-01.xml',
      'sitemap-news-01.xml',
      'sitemap-video-01.xml',
    ]);
    await roundTrip('index/webignition-children', [
      'example.com.sitemap.01.xml',
      'example.com.sitemap.02.xml',
      'example.com.sitemap.03.xml',
    ]);
  }, 60_000);

  it('large real files: 50,000 URLs stay one file (the protocol limit is not passed)', async () => {
    await roundTrip('large', [
      'breakroom-sitemap-50000-urls.xml',
      'refinebio-sitemap-1.xml.gz',
      'refinebio-sitemap-2.xml',
      'webignition-SitemapsOrgXmlWith8497Urls.xml',
      'sm-perf-data-roosterteeth.txt',
    ]);
  }, 120_000);
});

// ── Decisions ──

const site = 'https://shop.example';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';
const alternates = (en: string, de: string) =>
  `<xhtml:link rel="alternate" hreflang="en" href="${site}${en}"/><xhtml:link rel="alternate" hreflang="de" href="${site}${de}"/>`;
const crawled = (path: string, status = 200) =>
  JSON.stringify({ url: `${site}${path}`, status, indexable: true, crawled_at: '2026-11-20T08:00:00Z' });

async function shopAudit(): Promise<string> {
  const index = `<?xml version="1.0" encoding="UTF-8"?><sitemapindex ${NS}>${[
    ['maps/pages.xml', '2026-11-01'],
    ['maps/products.xml', '2026-11-02'],
    ['maps/old.xml', null],
    ['maps/blog%20posts.xml', '2026-11-03'],
  ]
    .map(
      ([loc, lastmod]) =>
        `<sitemap><loc>${site}/${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`,
    )
    .join('')}</sitemapindex>`;
  const pages = `<urlset ${NS} ${XHTML}>${[
    `<url><loc>${site}/en/a/</loc><lastmod>2026-10-01</lastmod>${alternates('/en/a/', '/de/a/')}</url>`,
    `<url><loc>${site}/de/a/</loc><lastmod>2026-10-02</lastmod>${alternates('/en/a/', '/de/a/')}</url>`,
    `<url><loc>${site}/about</loc><priority>0.8</priority></url>`,
  ].join('')}</urlset>`;
  const products = `<urlset ${NS} ${IMAGE}>${[1, 2, 3, 4, 5]
    .map(
      (i) =>
        `<url><loc>${site}/products/p-${i}</loc><image:image><image:loc>${site}/img/${i}.jpg</image:loc></image:image></url>`,
    )
    .join('')}</urlset>`;
  const old = `<urlset ${NS}><url><loc>${site}/old-1</loc></url><url><loc>${site}/old-2</loc></url></urlset>`;
  // The second entry is no URL: the reader refuses it, so the set cannot write it back (and says so).
  // /about is declared in pages.xml too, with no lastmod: each file keeps its own entry.
  const blog = `<urlset ${NS}><url><loc>${site}/blog/b-1</loc><lastmod>2026-09-09</lastmod></url><url><loc>javascript:void(0)</loc></url><url><loc>${site}/about</loc><lastmod>2026-08-08</lastmod></url></urlset>`;
  return reconciledAuditOf('Shop input set', {
    sitemaps: {
      'sitemap_index.xml': index,
      'pages.xml': pages,
      'products.xml': products,
      'old.xml': old,
      'blog posts.xml': blog,
    },
    crawl: [
      crawled('/en/a'),
      crawled('/de/a'),
      crawled('/about'),
      ...[1, 2, 3, 4, 5].map((i) => crawled(`/products/p-${i}`)),
      crawled('/old-1', 404),
      crawled('/old-2', 404),
      crawled('/blog/b-1'),
      crawled('/new/n-1'),
      crawled('/new/n-2'),
    ],
  });
}

async function approve(auditId: string, urls: string[]): Promise<void> {
  const { rows } = await pool().query<{ id: number; url: string; reason: string; list: string }>(
    'SELECT id, url, reason, list FROM findings WHERE audit_id = $1 AND url = ANY ($2::text[])',
    [auditId, urls.map((u) => `${site}${u}`)],
  );
  expect(rows.map((r) => r.url.slice(site.length)).sort()).toEqual([...urls].sort());
  const res = await decide(
    reviewer.request(`${base}/${auditId}/decisions`, {
      method: 'POST',
      body: JSON.stringify({ decision: 'approved', ids: rows.map((r) => r.id) }),
      headers: { 'content-type': 'application/json' },
    }),
    ctx(auditId),
  );
  expect(res.status).toBe(200);
}

describe('approved decisions change only what they say (layout=input)', () => {
  it('prunes, replaces a variant and its hreflang hrefs, adds, splits, drops an emptied file, renames an unsafe name', async () => {
    const auditId = await shopAudit();
    const reasons = await pool().query<{ url: string; reason: string }>(
      `SELECT url, reason FROM findings WHERE audit_id = $1 AND url = ANY ($2::text[])`,
      [auditId, [`${site}/en/a/`, `${site}/old-1`, `${site}/new/n-1`]],
    );
    expect(Object.fromEntries(reasons.rows.map((r) => [r.url.slice(site.length), r.reason]))).toEqual({
      '/en/a/': 'url_variant',
      '/old-1': 'http_404',
      '/new/n-1': 'reachable_not_declared',
    });
    // /en/a is on the add list too (the variant's crawled form): approving it adds nothing more.
    await approve(auditId, ['/en/a/', '/en/a', '/old-1', '/old-2', '/new/n-1', '/new/n-2']);

    const summary = await summaryOf(auditId, 'maxUrls=3');
    const byName = new Map(summary.files.map((f) => [f.name, f]));
    expect(byName.get('sitemap_index.xml')).toMatchObject({
      status: 'changed',
      entries: 4,
      urls: 5,
      removed: 1,
    });
    expect(byName.get('pages.xml')).toMatchObject({
      status: 'changed',
      entries: 3,
      urls: 3,
      replaced: 1,
      removed: 0,
    });
    expect(byName.get('products.xml')).toMatchObject({
      status: 'changed',
      urls: 5,
      parts: ['products.xml', 'products-2.xml'],
    });
    expect(byName.get('old.xml')).toMatchObject({
      status: 'dropped',
      entries: 2,
      urls: 0,
      removed: 2,
      parts: [],
    });
    expect(byName.get('blog-posts.xml')).toMatchObject({ renamedFrom: 'blog posts.xml', urls: 2 });
    expect(byName.get('sitemap-added.xml')).toMatchObject({ status: 'new', added: 2 });
    expect(summary.warnings.map((w) => w.code).sort()).toEqual([
      'dropped',
      'entries_not_kept',
      'renamed',
      'split',
    ]);
    expect(summary.warnings.find((w) => w.code === 'entries_not_kept')?.files).toEqual([
      'blog-posts.xml (1)',
    ]);
    expect(summary.removed).toEqual({ http_404: 2 });

    const files = await zipOf(auditId, 'maxUrls=3');
    expect([...files.keys()].sort()).toEqual(
      [
        'blog-posts.xml',
        'pages.xml',
        'products-2.xml',
        'products.xml',
        'sitemap-added.xml',
        'sitemap_index.xml',
        'summary.json',
      ].sort(),
    );
    // The index: the same children in the same order with their lastmods; the split parts beside their
    // file, the emptied file left out, the renamed file at its new name, the additions last.
    const index = tree(plain(files.get('sitemap_index.xml') as Buffer));
    expect(index.children.map((c) => [c.children[0]?.text, c.children[1]?.text ?? null])).toEqual([
      [`${site}/maps/pages.xml`, '2026-11-01'],
      [`${site}/maps/products.xml`, '2026-11-02'],
      [`${site}/maps/products-2.xml`, '2026-11-02'],
      [`${site}/maps/blog-posts.xml`, '2026-11-03'],
      [`${site}/maps/sitemap-added.xml`, null],
    ]);
    // The approved variant: its <loc> and every hreflang href naming it; the other variant untouched.
    const pages = plain(files.get('pages.xml') as Buffer);
    expect(pages).toContain(XHTML);
    const pageTree = tree(pages);
    const link = (url: Node, lang: string) =>
      url.children.find(
        (c) => c.name === 'xhtml:link' && c.attributes.some(([k, v]) => k === 'hreflang' && v === lang),
      );
    const [en, de, about] = pageTree.children as [Node, Node, Node];
    expect(en.children[0]?.text).toBe(`${site}/en/a`);
    expect(en.children[1]?.text).toBe('2026-10-01');
    expect(de.children[0]?.text).toBe(`${site}/de/a/`);
    for (const url of [en, de]) {
      expect(link(url, 'en')?.attributes).toContainEqual(['href', `${site}/en/a`]);
      expect(link(url, 'de')?.attributes).toContainEqual(['href', `${site}/de/a/`]);
    }
    expect(about.children.map((c) => [c.name, c.text])).toEqual([
      ['loc', `${site}/about`],
      ['priority', '0.8'],
    ]);
    // Split parts each keep the root's namespaces and every image.
    const parts = ['products.xml', 'products-2.xml'].map((n) => tree(plain(files.get(n) as Buffer)));
    expect(parts.map((p) => p.children.length)).toEqual([3, 2]);
    for (const part of parts) {
      expect(part.attributes).toContainEqual([
        'xmlns:image',
        'http://www.google.com/schemas/sitemap-image/1.1',
      ]);
      for (const url of part.children) expect(url.children[1]?.name).toBe('image:image');
    }
    const added = tree(plain(files.get('sitemap-added.xml') as Buffer));
    expect(added.children.map((u) => u.children.map((c) => c.text))).toEqual([
      [`${site}/new/n-1`, '2026-11-20T08:00:00+00:00'],
      [`${site}/new/n-2`, '2026-11-20T08:00:00+00:00'],
    ]);
    expect(tree(plain(files.get('blog-posts.xml') as Buffer))).toEqual(
      tree(
        `<urlset ${NS}><url><loc>${site}/blog/b-1</loc><lastmod>2026-09-09</lastmod></url><url><loc>${site}/about</loc><lastmod>2026-08-08</lastmod></url></urlset>`,
      ),
    );
    // summary.json: the same change list as the summary route, with the parts as written.
    const written = JSON.parse(files.get('summary.json')?.toString() ?? '{}');
    expect(written.files).toEqual(summary.files);
    expect(written.warnings).toEqual(summary.warnings);
  }, 60_000);

  it('keeps regrouping by section as an explicit option', async () => {
    const auditId = await shopAudit();
    const summary = await summaryOf(auditId, 'layout=sections');
    expect(summary.layout).toBe('sections');
    expect(summary.options.maxUrls).toBe(25_000);
    const files = await zipOf(auditId, 'layout=sections&gzip=0');
    expect(files.has('sitemap-index.xml')).toBe(true);
    expect([...files.keys()]).toContain('products-sitemap-1.xml');
  }, 60_000);
});
