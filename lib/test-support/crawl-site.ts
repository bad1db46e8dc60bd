// A small website for crawler tests and the crawl benchmark, served on two loopback hosts (127.0.0.1 and
// 127.0.0.2, each on a port the OS picks) with a log of every request either host received. Both hosts serve
// the same site; OTHER below is the other host's origin, so a crawl of one must show no request at the other.
//
// The map (every path answers the same on both hosts):
//   /robots.txt          User-agent: * / Disallow: /private/ (+ Crawl-delay: spec.crawlDelaySeconds)
//   /                    home: links to every page below marked (home), to OTHER/ and OTHER/blog/, to /gen/0
//                        when spec.generatedPages > 0, and with rel=nofollow only to /nofollow-only
//   /blog/               → /blog/post-1, /blog/post-2, /blog/post-3 (each post links back to /blog/)
//   /shop/               → /shop/item-1, /shop/item-1;jsessionid=ABC123, /shop/item-2?sid=XYZ789 (the server
//                        ignores both session ids; the crawler should fetch each item once, without them)
//   /docs/               → /docs/intro → /docs/guide; /docs/guide names /docs/advanced only in
//                        <link rel="next"> in its head
//   /members             → /private/x, /private/y (disallowed by robots.txt; 200 if asked anyway)
//   /old-page            301 → /blog/post-1            /temp-page   302 → /shop/
//   /chain-start         301 → /chain-middle           /chain-middle 302 → <origin>/docs/intro (absolute)
//   /to-other            301 → OTHER/blog/ (an off-host redirect: never followed by a scoped crawl)
//   /missing 404, /gone 410, /broken 500: HTML bodies linking to /linked-from-error (never read, never fetched)
//   /noindex-meta        <meta name="robots" content="noindex">, links to /blog/post-2
//   /noindex-header      X-Robots-Tag: noindex
//   /nofollow-meta       <meta name="robots" content="nofollow">, links to /meta-nofollow-target (not followed)
//   /canonical-link      <link rel="canonical" href="/blog/post-1"> in head (and one to /shop/ in body, ignored)
//   /canonical-header    Link: <origin/docs/intro>; rel="canonical"
//   /files/guide.pdf     application/pdf;  /images/logo.png  image/png (HEAD supported, as everywhere)
//   /files/no-head.pdf   HEAD → 405; a GET with Range: bytes=0-0 → 206 with one byte
//   /rate-limited        429 + Retry-After: spec.retryAfterSeconds for the first spec.refusals requests (per
//                        host), then 200 (default: no refusals)
//   /latin1              text/html; charset=iso-8859-1, links to /caf%C3%A9 (written as "/café" in Latin-1)
//   /latin1-meta         the same bytes as plain text/html: only its <meta charset="iso-8859-1"> names it
//   /gzipped             Content-Encoding: gzip, links to /docs/gzip-only
//   /js-only/            links exist only after /js-only/app.js runs: it appends /js-only/a and /js-only/b
//   /calendar/YYYY/MM    trap: links to the previous and next month, forever (home links /calendar/2026/01)
//   /search?q=Q          trap: links to /search?q=Qa and /search?q=Q&sort=new (home links /search?q=a)
//   /gen/N               N < spec.generatedPages: links to /gen/8N+1 … /gen/8N+8 (those that exist), its parent
//                        and /gen/N+1; nothing else links outside /gen/ (a crawl from /gen/0 sees exactly them)
// Not linked from anywhere (tests ask for them):
//   /big?kb=K            an HTML page of about K KiB (default 256): a link to /big-first first, /big-last last
//   /download            application/octet-stream that never ends (until the client hangs up)
// Failing mode (spec.failing, or POST /__fail?mode=status|drop|off): every request answers 500, or has its
// connection dropped without an answer. Control requests (/__*) are not logged.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export type FailingMode = 'status' | 'drop' | null;

export interface CrawlSiteSpec {
  /** Crawl-delay in robots.txt for every agent, in seconds (fractions allowed); null: none. */
  crawlDelaySeconds?: number | null;
  /** robots.txt served as is instead of the default one. */
  robotsTxt?: string;
  /** Pages in /gen/ (default 0: none, and home does not link there). */
  generatedPages?: number;
  /** Bytes of filler text on each /gen/ page, for a realistic weight (default 2,048). */
  genFillerBytes?: number;
  /** 429 answers /rate-limited gives per host before it answers 200 (default 0). */
  refusals?: number;
  /** Its Retry-After, in whole seconds (default 1). */
  retryAfterSeconds?: number;
  failing?: FailingMode;
  /** Keep the request log (default true); the benchmark turns it off to keep memory flat. */
  logRequests?: boolean;
}

export interface CrawlSiteRequest {
  /** Epoch ms the request arrived. */
  at: number;
  /** The origin of the server that received it (one of `origins`). */
  origin: string;
  /** The Host header as sent. */
  host: string;
  method: string;
  /** Path and query as sent. */
  path: string;
  userAgent: string;
  /** The status sent; null when the connection was dropped before any answer. */
  status: number | null;
  /** The response was sent whole (false: the client hung up first, or the connection was dropped). */
  complete: boolean;
}

export interface CrawlSite {
  /** http://127.0.0.1:<port>: the site under test. */
  origin: string;
  /** [origin, the other loopback host's origin]. */
  origins: [string, string];
  requests: CrawlSiteRequest[];
  /** Logged requests to `origin` (default: the first host) for this path and query. */
  requestsTo(path: string, origin?: string): CrawlSiteRequest[];
  setFailing(mode: FailingMode): void;
  close(): Promise<void>;
}

export const GEN_FANOUT = 8;
const HOSTS = ['127.0.0.1', '127.0.0.2'] as const;
const OTHER = '{OTHER}';
const ORIGIN = '{ORIGIN}';

interface Route {
  status: number;
  links?: readonly string[];
  /** Links rel=nofollow. */
  nofollowLinks?: readonly string[];
  /** A <link rel="next"> in the head. */
  next?: string;
  /** The content of a robots meta. */
  robots?: string;
  head?: string;
  /** Markup at the end of the body (beside the links). */
  body?: string;
  headers?: Record<string, string>;
}

// Every static page. Links are paths on the same host, or OTHER + path for the other host; a redirect's
// target is its Location header.
const ROUTES: Record<string, Route> = {
  '/': {
    status: 200,
    links: [
      '/blog/',
      '/shop/',
      '/docs/',
      '/members',
      '/old-page',
      '/temp-page',
      '/chain-start',
      '/to-other',
      '/missing',
      '/gone',
      '/broken',
      '/noindex-meta',
      '/noindex-header',
      '/nofollow-meta',
      '/canonical-link',
      '/canonical-header',
      '/files/guide.pdf',
      '/files/no-head.pdf',
      '/images/logo.png',
      '/rate-limited',
      '/latin1',
      '/latin1-meta',
      '/gzipped',
      '/js-only/',
      '/calendar/2026/01',
      '/search?q=a',
      `${OTHER}/`,
      `${OTHER}/blog/`,
    ],
    nofollowLinks: ['/nofollow-only'],
  },
  '/blog/': { status: 200, links: ['/', '/blog/post-1', '/blog/post-2', '/blog/post-3'] },
  '/blog/post-1': { status: 200, links: ['/blog/'] },
  '/blog/post-2': { status: 200, links: ['/blog/'] },
  '/blog/post-3': { status: 200, links: ['/blog/'] },
  '/shop/': {
    status: 200,
    links: ['/', '/shop/item-1', '/shop/item-1;jsessionid=ABC123', '/shop/item-2?sid=XYZ789'],
  },
  '/shop/item-1': { status: 200, links: ['/shop/'] },
  '/shop/item-2': { status: 200, links: ['/shop/'] },
  '/docs/': { status: 200, links: ['/', '/docs/intro'] },
  '/docs/intro': { status: 200, links: ['/docs/', '/docs/guide'] },
  '/docs/guide': { status: 200, links: ['/docs/'], next: '/docs/advanced' },
  '/docs/advanced': { status: 200, links: ['/docs/'] },
  '/docs/gzip-only': { status: 200, links: ['/docs/'] },
  '/members': { status: 200, links: ['/', '/private/x', '/private/y'] },
  '/private/x': { status: 200 },
  '/private/y': { status: 200 },
  '/old-page': { status: 301, headers: { location: '/blog/post-1' } },
  '/temp-page': { status: 302, headers: { location: '/shop/' } },
  '/chain-start': { status: 301, headers: { location: '/chain-middle' } },
  '/chain-middle': { status: 302, headers: { location: `${ORIGIN}/docs/intro` } },
  '/to-other': { status: 301, headers: { location: `${OTHER}/blog/` } },
  '/missing': { status: 404, links: ['/linked-from-error'] },
  '/gone': { status: 410, links: ['/linked-from-error'] },
  '/broken': { status: 500, links: ['/linked-from-error'] },
  '/linked-from-error': { status: 200 },
  '/noindex-meta': { status: 200, links: ['/blog/post-2'], robots: 'noindex' },
  '/noindex-header': { status: 200, links: ['/'], headers: { 'x-robots-tag': 'noindex' } },
  '/nofollow-meta': {
    status: 200,
    links: ['/meta-nofollow-target'],
    robots: 'nofollow',
  },
  '/meta-nofollow-target': { status: 200 },
  '/nofollow-only': { status: 200 },
  '/canonical-link': {
    status: 200,
    links: ['/'],
    head: '<link rel="canonical" href="/blog/post-1">',
    body: '<link rel="canonical" href="/shop/">',
  },
  '/canonical-header': {
    status: 200,
    links: ['/'],
    headers: { link: `<${ORIGIN}/docs/intro>; rel="canonical"` },
  },
  '/rate-limited': { status: 200, links: ['/'] },
  '/caf%C3%A9': { status: 200, links: ['/'] },
  // Served as fixed bytes below (Latin-1, gzip); their links are listed here for the facts.
  '/latin1': { status: 200, links: ['/caf%C3%A9'] },
  '/latin1-meta': { status: 200, links: ['/caf%C3%A9'] },
  '/gzipped': { status: 200, links: ['/docs/gzip-only'] },
  '/js-only/': { status: 200, body: '<div id="app"></div><script src="/js-only/app.js"></script>' },
  '/js-only/a': { status: 200, links: ['/js-only/'] },
  '/js-only/b': { status: 200, links: ['/js-only/'] },
};

const JS_ONLY_SCRIPT = `for (const name of ['a', 'b']) {
  const link = document.createElement('a');
  link.href = '/js-only/' + name;
  link.textContent = 'Page ' + name;
  document.getElementById('app').appendChild(link);
}
`;

// A minimal valid PDF and a 1×1 PNG: real types, so a client that sniffed them would agree.
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const FILES: Record<string, { type: string; bytes: Buffer; head: boolean }> = {
  '/files/guide.pdf': { type: 'application/pdf', bytes: PDF, head: true },
  '/files/no-head.pdf': { type: 'application/pdf', bytes: PDF, head: false },
  '/images/logo.png': { type: 'image/png', bytes: PNG, head: true },
};

const LATIN1_PAGE = Buffer.from(
  '<!doctype html><html><head><meta charset="iso-8859-1"><title>Café</title></head><body><a href="/café">Café</a></body></html>',
  'latin1',
);
const GZIPPED_PAGE = gzipSync(
  '<!doctype html><html><head><title>Gzipped</title></head><body><a href="/docs/gzip-only">Only here</a></body></html>',
);

const NOT_FOUND =
  '<!doctype html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>';
// writeHead's headers as a flat array: no object to copy per answer.
const HTML_HEADERS = (length: number) => [
  'content-type',
  'text/html; charset=utf-8',
  'content-length',
  String(length),
];

/** The other host's origin for a server at `self`. */
type Origins = { self: string; other: string };

function withOrigins(text: string, origins: Origins): string {
  return text.replaceAll(OTHER, origins.other).replaceAll(ORIGIN, origins.self);
}

function html(title: string, route: Omit<Route, 'status'>, origins: Origins): string {
  const anchor = (href: string, rel = '') =>
    `<li><a href="${withOrigins(href, origins)}"${rel}>${href.replace(OTHER, 'other host ')}</a></li>`;
  const links = (route.links ?? []).map((href) => anchor(href)).join('');
  const nofollow = (route.nofollowLinks ?? []).map((href) => anchor(href, ' rel="nofollow"')).join('');
  const head = `${route.next ? `<link rel="next" href="${route.next}">` : ''}${
    route.robots ? `<meta name="robots" content="${route.robots}">` : ''
  }${route.head ?? ''}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><h1>${title}</h1><ul>${links}${nofollow}</ul>${route.body ?? ''}</body></html>`;
}

/** The path with a ;jsessionid= parameter removed (the site ignores it, as Java servers do). */
function withoutJsessionid(path: string): string {
  return path.replace(/;jsessionid=[^/?#]*/i, '');
}

export async function startCrawlSite(spec: CrawlSiteSpec = {}): Promise<CrawlSite> {
  const generated = spec.generatedPages ?? 0;
  const filler = `<p>${'Lorem ipsum dolor sit amet. '.repeat(Math.ceil((spec.genFillerBytes ?? 2048) / 28))}</p>`;
  const logging = spec.logRequests ?? true;
  const requests: CrawlSiteRequest[] = [];
  const refusalsLeft = new Map<string, number>();
  let failing: FailingMode = spec.failing ?? null;
  const robotsTxt =
    spec.robotsTxt ??
    `User-agent: *\nDisallow: /private/\n${
      spec.crawlDelaySeconds == null ? '' : `Crawl-delay: ${spec.crawlDelaySeconds}\n`
    }`;
  const homeRoute: Route = {
    ...(ROUTES['/'] as Route),
    links: [...(ROUTES['/']?.links ?? []), ...(generated > 0 ? ['/gen/0'] : [])],
  };

  const genPage = (n: number): string => {
    let links = '';
    for (let k = 1; k <= GEN_FANOUT; k++) {
      const child = n * GEN_FANOUT + k;
      if (child < generated) links += `<li><a href="/gen/${child}">Page ${child}</a></li>`;
    }
    if (n > 0) links += `<li><a href="/gen/${Math.floor((n - 1) / GEN_FANOUT)}">Up</a></li>`;
    if (n + 1 < generated) links += `<li><a href="/gen/${n + 1}">Next</a></li>`;
    return `<!doctype html><html><head><meta charset="utf-8"><title>Page ${n}</title></head><body><h1>Page ${n}</h1><ul>${links}</ul>${filler}</body></html>`;
  };

  const answer = (req: http.IncomingMessage, res: http.ServerResponse, origins: Origins) => {
    const target = req.url ?? '/';
    // The benchmark's pages first, before anything else is built: a /gen/ answer costs its HTML string.
    if (target.startsWith('/gen/')) {
      const n = Number(target.slice(5));
      const exists = Number.isInteger(n) && n >= 0 && n < generated && target.length === 5 + String(n).length;
      const body = exists ? genPage(n) : NOT_FOUND;
      res.writeHead(exists ? 200 : 404, HTML_HEADERS(Buffer.byteLength(body)));
      res.end(body);
      return;
    }
    const query = target.indexOf('?');
    const path = withoutJsessionid(query < 0 ? target : target.slice(0, query));
    const send = (
      status: number,
      type: string,
      body: string | Buffer,
      headers: http.OutgoingHttpHeaders = {},
    ) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    const page = (
      status: number,
      title: string,
      route: Omit<Route, 'status'>,
      headers: http.OutgoingHttpHeaders = {},
    ) => send(status, 'text/html; charset=utf-8', html(title, route, origins), headers);

    if (path === '/robots.txt') return send(200, 'text/plain; charset=utf-8', robotsTxt);
    const file = FILES[path];
    if (file) {
      if (req.method === 'HEAD' && !file.head) return send(405, 'text/plain', '', { allow: 'GET' });
      if (req.headers.range === 'bytes=0-0') {
        return send(206, file.type, file.bytes.subarray(0, 1), {
          'content-range': `bytes 0-0/${file.bytes.length}`,
        });
      }
      return send(200, file.type, file.bytes);
    }
    if (path === '/js-only/app.js') return send(200, 'text/javascript; charset=utf-8', JS_ONLY_SCRIPT);
    if (path === '/latin1') return send(200, 'text/html; charset=iso-8859-1', LATIN1_PAGE);
    if (path === '/latin1-meta') return send(200, 'text/html', LATIN1_PAGE);
    if (path === '/gzipped') {
      return send(200, 'text/html; charset=utf-8', GZIPPED_PAGE, { 'content-encoding': 'gzip' });
    }
    const params = new URLSearchParams(query < 0 ? '' : target.slice(query + 1));
    if (path === '/search') {
      const q = params.get('q') ?? '';
      const links = [
        `/search?q=${encodeURIComponent(`${q}a`)}`,
        `/search?q=${encodeURIComponent(q)}&sort=new`,
      ];
      return page(200, `Search ${q}`, { links });
    }
    const month = /^\/calendar\/(\d{4})\/(\d{2})$/.exec(path);
    if (month) {
      const index = Number(month[1]) * 12 + Number(month[2]) - 1;
      const at = (i: number) => `/calendar/${Math.floor(i / 12)}/${String((i % 12) + 1).padStart(2, '0')}`;
      return page(200, `Calendar ${path}`, { links: [at(index - 1), at(index + 1)] });
    }
    if (path === '/big') {
      const kb = Math.min(Number(params.get('kb') ?? 256) || 256, 64 * 1024);
      const filling = `<p>${'x'.repeat(1000)}</p>`.repeat(kb);
      return page(200, 'Big', {
        links: ['/big-first'],
        body: `${filling}<a href="/big-last">last</a>`,
      });
    }
    if (path === '/download') return streamForever(res);
    if (path === '/rate-limited') {
      const left = refusalsLeft.get(origins.self) ?? spec.refusals ?? 0;
      if (left > 0) {
        refusalsLeft.set(origins.self, left - 1);
        return page(429, 'Too many requests', {}, { 'retry-after': String(spec.retryAfterSeconds ?? 1) });
      }
    }
    const route = path === '/' ? homeRoute : ROUTES[path];
    if (!route) return page(404, 'Not found', {});
    const headers = Object.fromEntries(
      Object.entries(route.headers ?? {}).map(([name, value]) => [name, withOrigins(value, origins)]),
    );
    page(route.status, path, route, headers);
  };

  const servers: http.Server[] = [];
  const sockets = new Set<Socket>();
  const origins: string[] = [];
  for (const host of HOSTS) {
    const server = http.createServer((req, res) => {
      const target = req.url ?? '/';
      const self = origins[HOSTS.indexOf(host)] as string;
      if (target.startsWith('/__')) return control(req, res, target);
      const entry: CrawlSiteRequest | null = logging
        ? {
            at: Date.now(),
            origin: self,
            host: req.headers.host ?? '',
            method: req.method ?? '',
            path: target,
            userAgent: req.headers['user-agent'] ?? '',
            status: null,
            complete: false,
          }
        : null;
      if (entry) {
        requests.push(entry);
        res.on('finish', () => {
          entry.complete = true;
        });
        res.on('close', () => {
          if (res.headersSent) entry.status = res.statusCode;
        });
      }
      if (failing === 'drop') return req.socket.destroy();
      if (failing === 'status') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('failing');
      }
      const other = origins[1 - HOSTS.indexOf(host)] as string;
      answer(req, res, { self, other });
    });
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    origins.push(`http://${host}:${(server.address() as AddressInfo).port}`);
    servers.push(server);
  }

  function control(req: http.IncomingMessage, res: http.ServerResponse, target: string): void {
    const url = new URL(target, 'http://control');
    if (req.method === 'POST' && url.pathname === '/__fail') {
      const mode = url.searchParams.get('mode');
      failing = mode === 'status' || mode === 'drop' ? mode : null;
      res.writeHead(204).end();
      return;
    }
    res.writeHead(404).end();
  }

  const [first, second] = origins as [string, string];
  return {
    origin: first,
    origins: [first, second],
    requests,
    requestsTo: (path, origin = first) => requests.filter((r) => r.origin === origin && r.path === path),
    setFailing(mode) {
      failing = mode;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}

const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** Writes CHUNK after CHUNK, as fast as the client reads, until it hangs up (or 1 GiB, as a backstop). */
function streamForever(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  let sent = 0;
  const pump = () => {
    while (!res.destroyed && sent < 1024 ** 3) {
      sent += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

/** What a crawl of the site can be checked against (paths on the crawled host; OTHER paths separately). */
export interface CrawlSiteFacts {
  /** Every URL a complete site-mode crawl from / fetches, traps and /gen/ aside, session ids stripped: its
   * final status (/rate-limited: after its refusals) and its depth (a redirect's target: the hop's + 1). */
  pages: ReadonlyMap<string, { status: number; depth: number }>;
  /** Redirecting paths and their targets (a path, or OTHER + path for the other host). */
  redirects: Readonly<Record<string, string>>;
  /** Checked with HEAD (or the ranged GET), never with a plain GET. */
  resources: readonly string[];
  /** Linked but disallowed by robots.txt: never requested. */
  disallowed: readonly string[];
  /** Linked only in ways a crawler does not follow (rel=nofollow, a nofollow page, an error page's body). */
  unfollowed: readonly string[];
  /** Paths on the other host that the site links or redirects to (counted as outlinks, never fetched). */
  otherHostPaths: readonly string[];
  noindex: Readonly<Record<string, readonly string[]>>;
  canonicals: Readonly<Record<string, { target: string; source: 'link' | 'header' }>>;
  /** Where the infinite spaces start. */
  traps: { calendar: string; search: string };
  /** Reachable only when JavaScript runs (from /js-only/). */
  jsOnly: readonly string[];
  /** Links carrying session ids, as written. */
  sessionIdLinks: readonly string[];
}

const DISALLOWED_PREFIX = '/private/';
const TRAP_PREFIXES = ['/calendar/', '/search'];

function stripSessionIds(path: string): string {
  const plain = withoutJsessionid(path);
  const query = plain.indexOf('?');
  if (query < 0) return plain;
  const params = new URLSearchParams(plain.slice(query + 1));
  params.delete('sid');
  const rest = params.toString();
  return rest === '' ? plain.slice(0, query) : `${plain.slice(0, query)}?${rest}`;
}

function siteFacts(): CrawlSiteFacts {
  const pages = new Map<string, { status: number; depth: number }>();
  const queue: string[] = ['/'];
  pages.set('/', { status: 200, depth: 0 });
  const otherHostPaths = new Set<string>();
  const unfollowed = new Set<string>();
  const redirects: Record<string, string> = {};
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const depth = (pages.get(path) as { depth: number }).depth;
    const route = ROUTES[path];
    const location = route?.headers?.location?.replace(ORIGIN, '');
    if (location !== undefined) redirects[path] = location;
    const nofollowPage = route?.robots?.includes('nofollow') ?? false;
    const readable = route !== undefined && route.status >= 200 && route.status < 300;
    const links = readable ? [...(route.links ?? []), ...(route.next ? [route.next] : [])] : [];
    const targets = [...(location === undefined ? [] : [location]), ...(nofollowPage ? [] : links)];
    for (const href of [...(route?.nofollowLinks ?? []), ...(nofollowPage ? links : [])])
      unfollowed.add(href);
    if (!readable) for (const href of route?.links ?? []) unfollowed.add(href);
    for (const raw of targets) {
      if (raw.startsWith(OTHER)) {
        otherHostPaths.add(raw.slice(OTHER.length));
        continue;
      }
      const target = stripSessionIds(raw);
      if (target.startsWith(DISALLOWED_PREFIX) || TRAP_PREFIXES.some((p) => target.startsWith(p))) continue;
      if (pages.has(target)) continue;
      const status = FILES[target] ? 200 : (ROUTES[target]?.status ?? 404);
      pages.set(target, { status, depth: depth + 1 });
      queue.push(target);
    }
  }
  for (const path of pages.keys()) unfollowed.delete(path);
  // /js-only/app.js is loaded by a script tag, not linked: only a renderer asks for it.
  return {
    pages,
    redirects,
    resources: Object.keys(FILES),
    disallowed: ['/private/x', '/private/y'],
    unfollowed: [...unfollowed],
    otherHostPaths: [...otherHostPaths],
    noindex: { '/noindex-meta': ['meta:robots'], '/noindex-header': ['header'] },
    canonicals: {
      '/canonical-link': { target: '/blog/post-1', source: 'link' },
      '/canonical-header': { target: '/docs/intro', source: 'header' },
    },
    traps: { calendar: '/calendar/2026/01', search: '/search?q=a' },
    jsOnly: ['/js-only/a', '/js-only/b'],
    sessionIdLinks: ['/shop/item-1;jsessionid=ABC123', '/shop/item-2?sid=XYZ789'],
  };
}

export const CRAWL_SITE: CrawlSiteFacts = siteFacts();
