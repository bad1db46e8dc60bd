// A small site for the built-in crawler (e2e/crawler.spec.ts). Each POST /crawl/sites to the spot-check site
// starts a fresh one on its own port of 127.0.0.1 (a site is a host and port: every spec run gets one with
// no history) and answers { origin }. On that origin:
//   /robots.txt   disallows /private, names /sitemap.xml
//   /sitemap.xml  /, /about, /blog/, /blog/first, /blog/gone (404) and /lonely (200, linked from nowhere)
//   /, /about, /blog/, /blog/first  HTML pages linking to each other, to /blog/gone, to /private/admin
//                 (disallowed) and to another host; /blog/first and /blog/ link /blog/second, which the
//                 sitemap misses
//   /blog/second  held until POST /__release (or 30 s after it is first asked for), so a spec sees the crawl
//                 running on a machine of any speed
//   GET /__requests  the paths requested so far, in order (JSON), so a spec can prove what was never fetched
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const SITEMAP_PATHS = ['/', '/about', '/blog/', '/blog/first', '/blog/gone', '/lonely'];

function page(title: string, links: string[]): string {
  const list = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><ul>${list}</ul></body></html>`;
}

const PAGES: Record<string, string> = {
  '/': page('Home', ['/about', '/blog/', '/private/admin', 'https://elsewhere.example/partner']),
  '/about': page('About', ['/', '/blog/first#team']),
  '/blog/': page('Blog', ['/blog/first', '/blog/second', '/blog/gone', '/']),
  '/blog/first': page('First post', ['/blog/second', '/blog/']),
  '/blog/second': page('Second post', ['/blog/', '/']),
  '/lonely': page('Linked from nowhere', ['/']),
  '/private/admin': page('Admin', []),
};

async function startCrawlSite(): Promise<string> {
  let origin = '';
  const requested: string[] = [];
  // The held page's answers, until the release; its 30 s start at the first request, so a slow ingest
  // before the crawl does not spend them.
  let isReleased = false;
  const waiting: (() => void)[] = [];
  let timer: NodeJS.Timeout | null = null;
  const release = () => {
    isReleased = true;
    if (timer) clearTimeout(timer);
    for (const send of waiting.splice(0)) send();
  };
  const answer = (path: string, res: http.ServerResponse) => {
    if (path === '/robots.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nDisallow: /private\n\nSitemap: ${origin}/sitemap.xml\n`);
    } else if (path === '/sitemap.xml') {
      const urls = SITEMAP_PATHS.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('\n');
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
        );
    } else if (PAGES[path]) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[path]);
    } else {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(page('Not found', ['/']));
    }
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/__requests') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(requested));
      return;
    }
    if (req.method === 'POST' && path === '/__release') {
      release();
      res.writeHead(204).end();
      return;
    }
    requested.push(path);
    if (path !== '/blog/second' || isReleased) return answer(path, res);
    waiting.push(() => answer(path, res));
    timer ??= setTimeout(release, 30_000).unref();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The fixture process ends with the test run; a site left behind must not keep it alive.
  server.unref();
  return origin;
}

/** Answers POST /crawl/sites (true), or leaves the request to the caller (false). */
export function answerCrawlSite(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method !== 'POST' || path !== '/crawl/sites') return false;
  startCrawlSite().then(
    (origin) => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ origin })),
    (error: unknown) => res.writeHead(500).end(String(error)),
  );
  return true;
}
