// The fixture's spot-check site as the spot-check specs audit it (e2e/fixture-server.ts serves it on
// FIXTURE_PORT + 1): a crawl that saw /gone-a and /back answer 404, /moved redirect to /target and
// /hidden noindex, and a sitemap declaring them (plus any extra paths a spec needs).
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { uploadAudit } from './seed';

const fixturePort = Number(process.env.FIXTURE_PORT ?? 3218);
export const site = `http://127.0.0.1:${Number(process.env.SPOT_SITE_PORT ?? fixturePort + 1)}`;
export const auth = path.resolve(import.meta.dirname, '..', 'test-results', '.auth');

const PATHS = ['/', '/target', '/gone-a', '/back', '/moved', '/hidden'];

/** A urlset of the site's pages and `extra` paths (pages the crawl never reached). */
export function spotSitemap(extra: string[] = []): string {
  const locs = [...PATHS, ...extra].map((p) => `<url><loc>${site}${p}</loc></url>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`;
}

export const spotCrawl = [
  { url: `${site}/`, status: 200, indexable: true },
  { url: `${site}/target`, status: 200, indexable: true },
  { url: `${site}/gone-a`, status: 404, indexable: false },
  { url: `${site}/back`, status: 404, indexable: false },
  { url: `${site}/moved`, status: 301, indexable: true, redirect_url: `${site}/target` },
  { url: `${site}/hidden`, status: 200, indexable: false },
]
  .map((row) => JSON.stringify({ canonical_url: row.url, crawled_at: '2026-11-27T09:00:00Z', ...row }))
  .join('\n');

/** Holds the site's slow pages (/gone-a, /back) until `releaseSlowPages`, so a run stays in progress for
 * as long as a spec needs to see it running or cancel it, on a machine of any speed. */
export async function holdSlowPages(page: Page): Promise<void> {
  expect((await page.request.post(`${site}/__hold`)).status()).toBe(204);
}

export async function releaseSlowPages(page: Page): Promise<void> {
  expect((await page.request.post(`${site}/__release`)).status()).toBe(204);
}

/** Creates an audit of the site, opens its page and waits until it has succeeded. */
export async function auditSpotSite(page: Page, name: string, extraPaths: string[] = []): Promise<void> {
  await uploadAudit(page, name, {
    sitemaps: [
      { name: 'sitemap.xml', mimeType: 'application/xml', buffer: Buffer.from(spotSitemap(extraPaths)) },
    ],
    crawl: { name: 'crawl.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(spotCrawl) },
  });
}

/** Fails when the page scrolls sideways at its current width. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits, `no sideways scroll at ${page.viewportSize()?.width} px (${what})`).toBe(true);
}
