// A "monitored site" for e2e/sites.spec.ts, whose sitemaps change between runs. Each POST /monitor/sites to
// the spot-check site starts a fresh one on its own port of 127.0.0.1 (a site is a host and port, so every
// spec run gets a site with no history) and answers { origin }. On that origin:
//   /robots.txt  names /sitemap.xml;  /sitemap.xml  an index of /pages.xml and /static.xml
//   /pages.xml   v1: /page-a (lastmod 2026-11-01), /page-b, /page-c;  v2: /page-a (lastmod 2026-11-20), /page-c,
//                /page-d (b is gone, d is new, a's lastmod moved);  /static.xml  /about and /contact, unchanged
//   /crawl.jsonl a crawl export of every page: v1 all 200; v2, crawled a day later, /page-b 301 → /page-d (b
//                moved to d), the rest 200;  /page-*, /about, /contact  200 HTML
//   POST /version/1|2  switches the sitemaps' version (204)
// Sitemap files answer with an ETag and a Last-Modified and give 304 to a matching If-None-Match (or, without
// one, an If-Modified-Since at or after it), so unchanged files are reused on the next run.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Version = 1 | 2;

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const PAGES = ['/page-a', '/page-b', '/page-c', '/page-d', '/about', '/contact'];

function urlset(origin: string, entries: [path: string, lastmod?: string][]): string {
  const urls = entries
    .map(
      ([path, lastmod]) =>
        `<url><loc>${origin}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${SITEMAP_NS}">\n${urls}\n</urlset>\n`;
}

/** A sitemap file's body and when it last changed (the Last-Modified it is served with). */
function sitemapFile(
  origin: string,
  path: string,
  version: Version,
): { body: string; modified: Date } | null {
  if (path === '/sitemap.xml') {
    const children = ['/pages.xml', '/static.xml']
      .map((child) => `<sitemap><loc>${origin}${child}</loc></sitemap>`)
      .join('');
    return {
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${SITEMAP_NS}">${children}</sitemapindex>\n`,
      modified: new Date('2026-10-01T00:00:00Z'),
    };
  }
  if (path === '/static.xml') {
    return {
      body: urlset(origin, [['/about'], ['/contact']]),
      modified: new Date('2026-10-01T00:00:00Z'),
    };
  }
  if (path === '/pages.xml') {
    return version === 1
      ? {
          body: urlset(origin, [['/page-a', '2026-11-01'], ['/page-b', '2026-11-01'], ['/page-c']]),
          modified: new Date('2026-11-01T00:00:00Z'),
        }
      : {
          body: urlset(origin, [['/page-a', '2026-11-20'], ['/page-c'], ['/page-d', '2026-11-20']]),
          modified: new Date('2026-11-20T00:00:00Z'),
        };
  }
  return null;
}

function isFresh(req: http.IncomingMessage, etag: string, modified: Date): boolean {
  const match = req.headers['if-none-match'];
  if (match !== undefined) return match.split(',').some((tag) => tag.trim() === etag);
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && since >= modified.getTime();
}

async function startMonitorSite(): Promise<string> {
  let version: Version = 1;
  let origin = '';
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const switched = /^\/version\/([12])$/.exec(path);
    if (req.method === 'POST' && switched) {
      version = Number(switched[1]) as Version;
      res.writeHead(204).end();
      return;
    }
    if (path === '/robots.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nSitemap: ${origin}/sitemap.xml\n`);
      return;
    }
    const file = sitemapFile(origin, path, version);
    if (file) {
      const etag = `"${createHash('sha1').update(file.body).digest('hex').slice(0, 16)}"`;
      const headers = { etag, 'last-modified': file.modified.toUTCString() };
      if (isFresh(req, etag, file.modified)) res.writeHead(304, headers).end();
      else res.writeHead(200, { ...headers, 'content-type': 'application/xml' }).end(file.body);
      return;
    }
    if (path === '/crawl.jsonl') {
      const moved = version === 2;
      const lines = PAGES.map((page) =>
        JSON.stringify({
          url: `${origin}${page}`,
          ...(moved && page === '/page-b'
            ? { status: 301, redirect_url: `${origin}/page-d` }
            : { status: 200, indexable: true }),
          crawled_at: moved ? '2026-11-26T08:00:00Z' : '2026-11-25T08:00:00Z',
        }),
      );
      res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(`${lines.join('\n')}\n`);
      return;
    }
    if (PAGES.includes(path)) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><head><title>${path}</title></head><body><h1>${path}</h1></body></html>`);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The fixture process ends with the test run; a site left behind must not keep it alive.
  server.unref();
  return origin;
}

/** Answers POST /monitor/sites (true), or leaves the request to the caller (false). */
export function answerMonitor(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method !== 'POST' || path !== '/monitor/sites') return false;
  startMonitorSite().then(
    (origin) => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ origin })),
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
  return true;
}
