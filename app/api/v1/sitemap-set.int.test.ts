// The corrected sitemap set through the real routes, on reconciled audits in Postgres: rows approved
// through the decisions route, the zip unzipped with yauzl, every file re-read with the product's own
// parser and re-linted with lib/hygiene's engine.
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { LintEngine } from '@/lib/hygiene/engine';
import { newParseStats, parseSitemapBatches } from '@/lib/sitemap/parse';
import type { SitemapEntry } from '@/lib/sitemap/types';
import { streamSetRows } from '@/lib/sitemap-set/data';
import type { SitemapSetSummaryDto } from '@/lib/sitemap-set/schema';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf } from '@/lib/test-support/run-audit';
import { unzip } from '@/lib/test-support/unzip';
import { POST as decide } from './audits/[id]/decisions/route';
import { GET as getSummary } from './audits/[id]/sitemap-set/route';
import { GET as getZip } from './audits/[id]/sitemap-set.zip/route';

const reviewer = await testCaller('reviewer');
const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const site = 'https://shop.example';

const entry = (path: string, lastmod: string | null, extra = '') =>
  `<url><loc>${site}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${extra}</url>`;
const urlset = (body: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body.join('')}</urlset>`;
const crawled = (path: string, status = 200, day = 1) =>
  JSON.stringify({
    url: `${site}${path}`,
    status,
    indexable: true,
    crawled_at: `2026-11-${String(day).padStart(2, '0')}T08:00:00Z`,
  });

/** about, products p-1…p-25 (p-21…p-25 answer 404), a variant v-1/ crawled as v-1, blog post-1…10
 * crawled and old-1…5 unreached; more.xml repeats p-1; new/n-1…5 crawled, undeclared. */
async function shopAudit(): Promise<string> {
  const main = [entry('/about', '2026-05-01', '<priority>0.8</priority><changefreq>daily</changefreq>')];
  const crawl = [crawled('/about')];
  for (let i = 1; i <= 25; i++) {
    main.push(entry(`/products/p-${i}`, `2026-0${(i % 9) + 1}-1${i % 10}`, '<priority>0.5</priority>'));
    crawl.push(crawled(`/products/p-${i}`, i > 20 ? 404 : 200));
  }
  main.push(entry('/products/v-1/', '2026-04-04'));
  crawl.push(crawled('/products/v-1', 200, 3));
  for (let i = 1; i <= 10; i++) {
    main.push(entry(`/blog/post-${i}`, `2026-10-${String(i + 10)}`));
    crawl.push(crawled(`/blog/post-${i}`));
  }
  for (let i = 1; i <= 5; i++) main.push(entry(`/blog/old-${i}`, `2025-01-0${i}`));
  for (let i = 1; i <= 5; i++) crawl.push(crawled(`/new/n-${i}`, 200, 10 + i));
  return reconciledAuditOf('Shop set', {
    sitemaps: { 'main.xml': urlset(main), 'more.xml': urlset([entry('/products/p-1', '2026-02-11')]) },
    crawl,
  });
}

async function findingIds(
  auditId: string,
  urls: string[],
): Promise<Map<string, { id: number; reason: string }>> {
  const { rows } = await pool().query<{ id: number; url: string; reason: string }>(
    'SELECT id, url, reason FROM findings WHERE audit_id = $1 AND url = ANY ($2::text[])',
    [auditId, urls.map((u) => `${site}${u}`)],
  );
  return new Map(rows.map((r) => [r.url.slice(site.length), { id: r.id, reason: r.reason }]));
}

async function approve(auditId: string, ids: number[]): Promise<void> {
  const res = await decide(
    reviewer.request(`${base}/${auditId}/decisions`, {
      method: 'POST',
      body: JSON.stringify({ decision: 'approved', ids }),
      headers: { 'content-type': 'application/json' },
    }),
    ctx(auditId),
  );
  expect(res.status).toBe(200);
}

/** Each sitemap file of the zip (and the index) read with lib/sitemap and judged by the lint engine,
 * as if served from `origin`. */
async function relint(files: Map<string, Buffer>, origin: string) {
  const engine = new LintEngine({ now: new Date('2026-12-01T00:00:00Z') });
  const entries = new Map<string, SitemapEntry[]>();
  for (const [name, body] of files) {
    if (name === 'summary.json') continue;
    const url = `${origin}${name}`;
    engine.beginFile({
      label: url,
      requestedUrl: url,
      finalUrl: url,
      base: url,
      contentType: name.endsWith('.gz') ? 'application/gzip' : 'application/xml',
      contentEncoding: null,
      name,
      bom: body[0] === 0xef,
    });
    const stats = newParseStats();
    const read: SitemapEntry[] = [];
    async function* source() {
      yield new Uint8Array(body);
    }
    for await (const batch of parseSitemapBatches(source(), stats)) {
      engine.addEntries(batch);
      read.push(...batch);
    }
    engine.endFile(stats, null);
    entries.set(name, read);
  }
  return { results: engine.finish(), entries };
}

async function zipOf(auditId: string, query = '') {
  const res = await getZip(viewer.request(`${base}/${auditId}/sitemap-set.zip?${query}`), ctx(auditId));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return unzip(Buffer.from(await res.arrayBuffer()));
}

describe('the corrected sitemap set, regrouped by section (layout=sections)', () => {
  it('removes approved prune rows, adds approved add rows with the crawl lastmod, replaces variants, re-lints clean', async () => {
    const auditId = await shopAudit();
    const f = await findingIds(auditId, [
      '/products/p-21',
      '/products/p-22',
      '/products/p-23',
      '/blog/old-1',
      '/blog/old-2',
      '/products/v-1/',
      '/products/v-1',
      '/new/n-1',
      '/new/n-2',
      '/new/n-3',
    ]);
    expect(f.get('/products/p-21')?.reason).toBe('http_404');
    expect(f.get('/blog/old-1')?.reason).toBe('unreached_by_crawl');
    expect(f.get('/products/v-1/')?.reason).toBe('url_variant');
    expect(f.get('/new/n-1')?.reason).toBe('reachable_not_declared');
    await approve(
      auditId,
      [...f.values()].map((x) => x.id),
    );

    const summaryRes = await getSummary(
      viewer.request(`${base}/${auditId}/sitemap-set?layout=sections&maxUrls=10`),
      ctx(auditId),
    );
    expect(summaryRes.status).toBe(200);
    const summary = (await summaryRes.json()) as SitemapSetSummaryDto;
    expect(summary.before).toEqual({ entries: 43, files: 2 });
    expect(summary.removed).toEqual({ http_404: 3, unreached_by_crawl: 2 });
    expect(summary.replaced).toBe(1);
    // The variant's crawled form is also an add row (approved): the same URL once. p-1 is declared twice.
    expect(summary.added).toBe(4);
    expect(summary.duplicates).toBe(2);
    expect(summary.after.urls).toBe(43 - 5 + 4 - 2);
    expect(summary.after.sections).toEqual([
      { name: 'products', urls: 23, files: 3 },
      { name: 'blog', urls: 13, files: 2 },
      { name: 'new', urls: 3, files: 1 },
      { name: 'pages', urls: 1, files: 1 },
    ]);
    expect(summary.options.base).toBe('https://shop.example/');

    const files = await zipOf(auditId, 'layout=sections&maxUrls=10&gzip=1');
    expect([...files.keys()].sort()).toEqual([
      'blog-sitemap-1.xml.gz',
      'blog-sitemap-2.xml.gz',
      'new-sitemap-1.xml.gz',
      'pages-sitemap-1.xml.gz',
      'products-sitemap-1.xml.gz',
      'products-sitemap-2.xml.gz',
      'products-sitemap-3.xml.gz',
      'sitemap-index.xml',
      'summary.json',
    ]);
    const { results, entries } = await relint(files, 'https://shop.example/');
    expect(results.filter((r) => r.severity !== 'info')).toEqual([]);
    // priority and changefreq are not written (the input had both): no info rule either.
    expect(results).toEqual([]);

    const urls = [...entries].filter(([n]) => n !== 'sitemap-index.xml').flatMap(([, e]) => e);
    const byLoc = new Map(urls.map((e) => [e.loc, e]));
    expect(urls).toHaveLength(summary.after.urls);
    for (const gone of [
      '/products/p-21',
      '/products/p-22',
      '/products/p-23',
      '/blog/old-1',
      '/blog/old-2',
      '/products/v-1/',
      '/new/n-4',
    ]) {
      expect(byLoc.has(`${site}${gone}`)).toBe(false);
    }
    for (const kept of ['/products/p-24', '/blog/old-3', '/about'])
      expect(byLoc.has(`${site}${kept}`)).toBe(true);
    // The variant's declared lastmod is kept on its crawled form (declared wins over the add row).
    expect(byLoc.get(`${site}/products/v-1`)?.lastmodRaw).toBe('2026-04-04');
    expect(byLoc.get(`${site}/new/n-2`)?.lastmodRaw).toBe('2026-11-12T08:00:00+00:00');
    // The last occurrence of a repeated entry wins (more.xml's).
    expect(byLoc.get(`${site}/products/p-1`)?.lastmodRaw).toBe('2026-02-11');

    const index = (entries.get('sitemap-index.xml') ?? []).map((e) => e.loc);
    expect(index.sort()).toEqual(
      [...files.keys()]
        .filter((n) => n.endsWith('.gz'))
        .map((n) => `${site}/${n}`)
        .sort(),
    );
    const written = JSON.parse(files.get('summary.json')?.toString() ?? '{}');
    // summary.json (counted from the files as written) says what the summary route counted.
    const { files: _written, ...rest } = written;
    // (Its `files` are the files as written; the route's are the input layout's change list, empty here.)
    expect({ ...rest, files: [] }).toEqual(summary);
    // Root pages sort first (section ''), then blog, new, products.
    expect(written.files.map((x: { urls: number }) => x.urls)).toEqual([1, 10, 3, 3, 10, 10, 3]);
    expect(gunzipSync(files.get('pages-sitemap-1.xml.gz') as Buffer).toString()).not.toMatch(
      /priority|changefreq/,
    );
  });

  it('writes plain XML at another base when asked; 409 before the reconcile; 400 on a bad option', async () => {
    const auditId = await reconciledAuditOf('Plain set', {
      sitemaps: { 's.xml': urlset([entry('/a', null), entry('/docs/b', null)]) },
      crawl: [crawled('/a'), crawled('/docs/b')],
    });
    const files = await zipOf(auditId, 'layout=sections&gzip=0&base=https://cdn.example/maps');
    expect([...files.keys()]).toEqual([
      'pages-sitemap-1.xml',
      'docs-sitemap-1.xml',
      'sitemap-index.xml',
      'summary.json',
    ]);
    expect(files.get('sitemap-index.xml')?.toString()).toContain(
      '<loc>https://cdn.example/maps/docs-sitemap-1.xml</loc>',
    );
    expect(files.get('pages-sitemap-1.xml')?.toString()).toContain(`<loc>${site}/a</loc>`);

    const bad = await getSummary(
      viewer.request(`${base}/${auditId}/sitemap-set?maxUrls=50001`),
      ctx(auditId),
    );
    expect(bad.status).toBe(400);
    const pending = randomUUID();
    await insertAudit(pending, 'Not reconciled', { normalization: 'exact' }, []);
    for (const handler of [getSummary, getZip]) {
      const res = await handler(viewer.request(`${base}/${pending}/sitemap-set`), ctx(pending));
      expect(res.status).toBe(409);
      expect((await res.json()).error.message).toMatch(/no findings/);
    }
  });

  it('splits a 60,000-URL audit into files within the limit, reading the rows in bounded batches', async () => {
    const locs = Array.from({ length: 60_000 }, (_, i) => `<url><loc>${site}/items/${i}</loc></url>`);
    const auditId = await reconciledAuditOf('Big set', {
      sitemaps: {
        'big.xml': `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`,
      },
      crawl: [crawled('/items/0')],
    });
    let rows = 0;
    let largest = 0;
    for await (const batch of streamSetRows(auditId)) {
      rows += batch.length;
      largest = Math.max(largest, batch.length);
    }
    expect(rows).toBe(60_000);
    expect(largest).toBe(2000);
    const files = await zipOf(auditId, 'layout=sections&maxUrls=25000&gzip=1');
    const written = JSON.parse(files.get('summary.json')?.toString() ?? '{}');
    expect(written.files).toEqual([
      expect.objectContaining({ name: 'items-sitemap-1.xml.gz', urls: 25_000 }),
      expect.objectContaining({ name: 'items-sitemap-2.xml.gz', urls: 25_000 }),
      expect.objectContaining({ name: 'items-sitemap-3.xml.gz', urls: 10_000 }),
    ]);
    const { results, entries } = await relint(files, `${site}/`);
    expect(results.filter((r) => r.severity !== 'info')).toEqual([]);
    expect(entries.get('items-sitemap-3.xml.gz')).toHaveLength(10_000);
  }, 60_000);

  it('removes an approved variant whose crawled form does not answer 200, never writing that form', async () => {
    // /moved/ was crawled only as /moved, which redirects: replacing the entry with it would declare a
    // redirect (the export offers no replace_with for it either). Approving the prune removes it.
    const auditId = await reconciledAuditOf('Variant that redirects', {
      sitemaps: { 'pages.xml': urlset([entry('/moved/', '2026-03-01'), entry('/kept', '2026-03-02')]) },
      crawl: [crawled('/moved', 301), crawled('/kept')],
    });
    const f = await findingIds(auditId, ['/moved/']);
    expect(f.get('/moved/')?.reason).toBe('url_variant');
    await approve(auditId, [f.get('/moved/')?.id as number]);

    const summaryRes = await getSummary(viewer.request(`${base}/${auditId}/sitemap-set`), ctx(auditId));
    const summary = (await summaryRes.json()) as SitemapSetSummaryDto;
    expect(summary.replaced).toBe(0);
    expect(summary.removed).toEqual({ url_variant: 1 });
    const files = await zipOf(auditId);
    const xml = files.get('pages.xml')?.toString() ?? '';
    expect(xml).toContain(`${site}/kept`);
    expect(xml).not.toContain(`${site}/moved`);
  });
});
