import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWL_SITE, type CrawlSite, startCrawlSite } from '@/lib/test-support/crawl-site';
import { createPageFetcher, isResourceUrl, type PageFetcherOptions } from './fetch-page';

const UA = 'CrawlTestBot/1.0 (+https://example.test/bot)';

let site: CrawlSite;
let other: string;

beforeAll(async () => {
  site = await startCrawlSite({ refusals: 1, retryAfterSeconds: 7 });
  other = site.origins[1];
});
afterAll(() => site.close());

const fetcher = (options: PageFetcherOptions = {}) =>
  createPageFetcher({ userAgent: UA, allowPrivateNetwork: true, ...options });
const fetchPage = fetcher();
const get = (path: string) => fetchPage(`${site.origin}${path}`, new AbortController().signal);
const at = (path: string) => `${site.origin}${path}`;

describe('createPageFetcher on pages', () => {
  it('reads the home page: links in order, absolute, nofollow counted apart, as the configured agent', async () => {
    const page = await get('/');
    expect(page).toMatchObject({
      url: at('/'),
      status: 200,
      method: 'GET',
      contentType: 'text/html; charset=utf-8',
      redirectUrl: null,
      canonical: null,
      noindex: false,
      nofollow: false,
      truncated: false,
      error: null,
      nofollowLinks: 1,
    });
    expect(page.links.slice(0, 4)).toEqual([at('/blog/'), at('/shop/'), at('/docs/'), at('/members')]);
    expect(page.links).toContain(`${other}/blog/`);
    expect(page.links).toContain(at('/search?q=a'));
    expect(page.links).not.toContain(at('/nofollow-only'));
    expect(page.responseMs).toBeGreaterThanOrEqual(0);
    expect(page.fetchedAt).toBeInstanceOf(Date);
    const [request] = site.requestsTo('/');
    expect(request).toMatchObject({ method: 'GET', userAgent: UA, status: 200 });
  });

  it('finds a link that only a <link rel="next"> in the head names', async () => {
    expect((await get('/docs/guide')).links).toEqual([at('/docs/advanced'), at('/docs/')]);
  });

  it('hands links with session ids on as written (the crawler strips them), and trap links as they come', async () => {
    expect((await get('/shop/')).links).toEqual([
      at('/'),
      at('/shop/item-1'),
      at('/shop/item-1;jsessionid=ABC123'),
      at('/shop/item-2?sid=XYZ789'),
    ]);
    expect((await get('/calendar/2026/01')).links).toEqual([
      at('/calendar/2025/12'),
      at('/calendar/2026/02'),
    ]);
    expect((await get('/search?q=a')).links).toEqual([at('/search?q=aa'), at('/search?q=a&sort=new')]);
  });

  it('reads the generated section: children, parent and next page, and a 404 past its end', async () => {
    const gen = await startCrawlSite({ generatedPages: 20 });
    try {
      const page = (n: number) => fetchPage(`${gen.origin}/gen/${n}`, new AbortController().signal);
      const path = (n: number) => `${gen.origin}/gen/${n}`;
      expect((await page(0)).links).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map(path));
      expect((await page(2)).links).toEqual([17, 18, 19, 0, 3].map(path));
      expect((await page(19)).links).toEqual([path(2)]);
      expect(await page(20)).toMatchObject({ status: 404, links: [] });
    } finally {
      await gen.close();
    }
  });

  it('sees no links on a page whose links only JavaScript adds', async () => {
    const page = await get('/js-only/');
    expect(page.status).toBe(200);
    expect(page.links).toEqual([]);
    expect(site.requestsTo('/js-only/app.js')).toHaveLength(0);
  });

  it('decodes the charset the Content-Type or the meta names, and a gzip-encoded page', async () => {
    expect((await get('/latin1')).links).toEqual([at('/caf%C3%A9')]);
    // No charset in the header: the page's <meta charset> names it, as a browser would read it.
    expect((await get('/latin1-meta')).links).toEqual([at('/caf%C3%A9')]);
    expect((await get('/gzipped')).links).toEqual([at('/docs/gzip-only')]);
  });
});

describe('createPageFetcher on redirects and errors', () => {
  it('answers a 301 or 302 with its resolved Location, without following it', async () => {
    const before = site.requests.length;
    expect(await get('/old-page')).toMatchObject({ status: 301, redirectUrl: at('/blog/post-1'), links: [] });
    expect(await get('/temp-page')).toMatchObject({ status: 302, redirectUrl: at('/shop/') });
    expect(await get('/chain-start')).toMatchObject({ status: 301, redirectUrl: at('/chain-middle') });
    expect(await get('/chain-middle')).toMatchObject({ status: 302, redirectUrl: at('/docs/intro') });
    expect(await get('/to-other')).toMatchObject({ status: 301, redirectUrl: `${other}/blog/` });
    // One request per fetch: no hop was followed, least of all to the other host.
    expect(site.requests.slice(before).map((r) => r.path)).toEqual([
      '/old-page',
      '/temp-page',
      '/chain-start',
      '/chain-middle',
      '/to-other',
    ]);
    expect(site.requests.filter((r) => r.origin === other)).toHaveLength(0);
  });

  it('reports 404, 410 and 500 without reading their bodies', async () => {
    for (const [path, status] of [
      ['/missing', 404],
      ['/gone', 410],
      ['/broken', 500],
    ] as const) {
      const page = await get(path);
      expect(page).toMatchObject({ status, error: null, links: [] });
      expect(CRAWL_SITE.pages.get(path)?.status).toBe(status);
    }
  });

  it('gives the Retry-After of a 429 in ms, and the page once the host lets it through', async () => {
    expect(await get('/rate-limited')).toMatchObject({ status: 429, retryAfterMs: 7000, links: [] });
    expect(await get('/rate-limited')).toMatchObject({ status: 200, retryAfterMs: null, error: null });
  });

  it('returns network failures as errors, never throwing', async () => {
    const dead = await startCrawlSite();
    const origin = dead.origin;
    await dead.close();
    expect((await fetchPage(`${origin}/`, new AbortController().signal)).error?.code).toBe('connect_failed');
    expect((await fetchPage('http://exa mple.com/', new AbortController().signal)).error?.code).toBe(
      'bad_url',
    );
    const port = Number(new URL(site.origin).port);
    const guarded = createPageFetcher({ userAgent: UA, allowPrivateNetwork: false, allowedPorts: [port] });
    expect(await guarded(at('/'), new AbortController().signal)).toMatchObject({
      status: null,
      error: { code: 'blocked_address' },
    });
    const cancelled = new AbortController();
    cancelled.abort();
    expect((await fetchPage(at('/'), cancelled.signal)).error?.code).toBe('aborted');
  });

  it('reports a failing site: 500s, and dropped connections as errors', async () => {
    const failing = await startCrawlSite({ failing: 'status' });
    try {
      const url = `${failing.origin}/blog/`;
      expect(await fetchPage(url, new AbortController().signal)).toMatchObject({ status: 500, links: [] });
      failing.setFailing('drop');
      expect(await fetchPage(url, new AbortController().signal)).toMatchObject({
        status: null,
        error: { code: 'connect_failed' },
      });
      // The toggle a test in another process would use; control requests stay out of the log.
      expect((await fetch(`${failing.origin}/__fail?mode=off`, { method: 'POST' })).status).toBe(204);
      expect(await fetchPage(url, new AbortController().signal)).toMatchObject({ status: 200, error: null });
      expect(failing.requests.map((r) => r.status)).toEqual([500, null, 200]);
    } finally {
      await failing.close();
    }
  });
});

describe('createPageFetcher on indexing signals', () => {
  it('reads noindex from the robots meta and from X-Robots-Tag', async () => {
    expect(await get('/noindex-meta')).toMatchObject({ noindex: true, noindexSources: ['meta:robots'] });
    expect(await get('/noindex-header')).toMatchObject({ noindex: true, noindexSources: ['header'] });
    expect(await get('/blog/post-1')).toMatchObject({ noindex: false, noindexSources: [] });
  });

  it('says nofollow for a nofollow robots meta, still listing the links it counts', async () => {
    expect(await get('/nofollow-meta')).toMatchObject({
      nofollow: true,
      links: [at('/meta-nofollow-target')],
    });
  });

  it('takes the canonical from the head (not the body), else from the Link header', async () => {
    expect(await get('/canonical-link')).toMatchObject({
      canonical: at('/blog/post-1'),
      canonicalSource: 'link',
    });
    expect(await get('/canonical-header')).toMatchObject({
      canonical: at('/docs/intro'),
      canonicalSource: 'header',
    });
  });
});

describe('createPageFetcher on files and large bodies', () => {
  it('checks a PDF and an image with HEAD alone', async () => {
    for (const [path, type] of [
      ['/files/guide.pdf', 'application/pdf'],
      ['/images/logo.png', 'image/png'],
    ] as const) {
      expect(await get(path)).toMatchObject({ status: 200, method: 'HEAD', contentType: type, links: [] });
      expect(site.requestsTo(path).map((r) => r.method)).toEqual(['HEAD']);
    }
  });

  it('asks for one byte when a server refuses HEAD', async () => {
    expect(await get('/files/no-head.pdf')).toMatchObject({ status: 200, method: 'GET', error: null });
    expect(site.requestsTo('/files/no-head.pdf').map((r) => [r.method, r.status])).toEqual([
      ['HEAD', 405],
      ['GET', 206],
    ]);
  });

  it('cuts an HTML page at the byte cap: links before the cut only, marked truncated', async () => {
    const small = fetcher({ maxBodyBytes: 16 * 1024 });
    const page = await small(at('/big?kb=64'), new AbortController().signal);
    expect(page).toMatchObject({ status: 200, truncated: true, error: null, links: [at('/big-first')] });
    const whole = await fetchPage(at('/big?kb=64'), new AbortController().signal);
    expect(whole).toMatchObject({ truncated: false, links: [at('/big-first'), at('/big-last')] });
  });

  it('reads a page longer than the default 5 MiB cap up to the cap, not failing it', async () => {
    const page = await get('/big?kb=6000');
    expect(page).toMatchObject({ status: 200, truncated: true, error: null, links: [at('/big-first')] });
  });

  it('leaves a body that is not HTML unread, however long', async () => {
    const page = await get('/download');
    expect(page).toMatchObject({
      status: 200,
      method: 'GET',
      contentType: 'application/octet-stream',
      links: [],
      truncated: false,
      error: null,
    });
  });
});

describe('isResourceUrl', () => {
  it('goes by the last path segment’s extension, case-insensitively, ignoring the query', () => {
    const is = (url: string) => isResourceUrl(new URL(url));
    expect(is('https://e.com/a/report.PDF?v=2')).toBe(true);
    expect(is('https://e.com/img/photo.webp')).toBe(true);
    expect(is('https://e.com/feed.xml')).toBe(true);
    expect(is('https://e.com/page.html')).toBe(false);
    expect(is('https://e.com/v1.2/page')).toBe(false);
    expect(is('https://e.com/search?file=a.pdf')).toBe(false);
    expect(is('https://e.com/')).toBe(false);
  });
});
