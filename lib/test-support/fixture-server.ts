// A static HTTP server on 127.0.0.1 over the shared fixture corpus, for integration and end-to-end tests.
//   /fixtures/<path>   the corpus file as is
//   /minisite/<path>   index/aafeher-minisite with its placeholder host HOST replaced by this server
//   /robots.txt        the minisite's robots-with-sitemapindex/robots.txt (so "/" works as a site root)
//   /transport-gzip/<path>  a minisite .gz file sent with Content-Encoding: gzip (decoded in transport)
//   /status/<code>     an empty response with that status;  /slow  headers, then nothing for 10 s
//   /held-index.xml?key=K&children=N&free=F  a sitemap index of N children (default 20, at most 40): the first
//                      F (default 0) answer at once, the rest wait until POST /__release/K (or 60 s, so a
//                      failed test does not keep a worker busy), then answer at once; an audit of it runs
//                      for exactly as long as a test needs, on a machine of any speed
//   /health  200
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fixturesDir } from './fixtures';

export interface FixtureServer {
  origin: string;
  close(): Promise<void>;
}

function contentType(file: string): string {
  if (file.endsWith('.xml')) return 'application/xml';
  if (file.endsWith('.txt')) return 'text/plain; charset=utf-8';
  if (file.endsWith('.gz')) return 'application/gzip';
  if (file.endsWith('.csv')) return 'text/csv';
  return 'application/octet-stream';
}

function withHost(bytes: Buffer, host: string): Buffer {
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = (gz ? gunzipSync(bytes) : bytes).toString('utf8');
  if (!text.includes('HOST')) return bytes;
  const replaced = Buffer.from(text.replaceAll('http://HOST/', `http://${host}/minisite/`));
  return gz ? gzipSync(replaced) : replaced;
}

function resolveInside(base: string, relative: string): string | null {
  const full = path.resolve(base, decodeURIComponent(relative));
  if (!full.startsWith(base + path.sep)) return null;
  return existsSync(full) && statSync(full).isFile() ? full : null;
}

const SITEMAP_INDEX_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';

/** A whole-number query parameter, its default when absent or invalid, never above `max`. */
function boundedParam(url: URL, name: string, fallback: number, max: number): number {
  const value = Number(url.searchParams.get(name) ?? Number.NaN);
  return Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;
}

/** The children of one held index (by its key): answers waiting for the release, and whether it came. */
interface Hold {
  released: boolean;
  waiting: Set<() => void>;
  timer: NodeJS.Timeout;
}

/** Longest a held child waits without a release: a test that failed before releasing frees the worker. */
const HOLD_LIMIT_MS = 60_000;

export async function startFixtureServer(port = 0): Promise<FixtureServer> {
  const minisite = path.join(fixturesDir, 'index', 'aafeher-minisite');
  let host = '';
  const holds = new Map<string, Hold>();
  const release = (key: string) => {
    const hold = holds.get(key);
    if (!hold || hold.released) return;
    hold.released = true;
    clearTimeout(hold.timer);
    for (const send of hold.waiting) send();
    hold.waiting.clear();
  };
  const holdOf = (key: string): Hold => {
    let hold = holds.get(key);
    if (!hold) {
      hold = { released: false, waiting: new Set(), timer: setTimeout(() => release(key), HOLD_LIMIT_MS) };
      hold.timer.unref();
      holds.set(key, hold);
    }
    return hold;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: Buffer | string = '', type = 'text/plain') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (url.pathname === '/health') return send(200, 'ok');
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (status) return send(Number(status[1]), `status ${status[1]}`);
    if (url.pathname === '/slow') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const timer = setTimeout(() => res.end('</urlset>'), 10_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (url.pathname === '/held-index.xml') {
      const key = url.searchParams.get('key') ?? '';
      if (!/^[\w-]{1,80}$/.test(key)) return send(400, 'a key of letters, digits, _ and - is needed');
      holdOf(key);
      const children = boundedParam(url, 'children', 20, 40);
      const free = boundedParam(url, 'free', 0, children);
      const locs = Array.from(
        { length: children },
        (_, i) =>
          `<sitemap><loc>http://${host}/held-child/${key}/${i + 1}.xml${i < free ? '?free=1' : ''}</loc></sitemap>`,
      );
      return send(200, `${SITEMAP_INDEX_OPEN}${locs.join('')}</sitemapindex>`, 'application/xml');
    }
    const heldChild = /^\/held-child\/([\w-]{1,80})\/(\d+)\.xml$/.exec(url.pathname);
    if (heldChild) {
      const [, key = '', n] = heldChild;
      const body = `${URLSET_OPEN}<url><loc>http://${host}/held-page/${n}</loc></url></urlset>`;
      const hold = holdOf(key);
      if (hold.released || url.searchParams.has('free')) return send(200, body, 'application/xml');
      const answer = () => send(200, body, 'application/xml');
      hold.waiting.add(answer);
      res.on('close', () => hold.waiting.delete(answer));
      return;
    }
    const releasing = /^\/__release\/([\w-]{1,80})$/.exec(url.pathname);
    if (releasing && req.method === 'POST') {
      release(releasing[1] ?? '');
      return send(204);
    }
    if (url.pathname.startsWith('/transport-gzip/')) {
      const file = resolveInside(minisite, url.pathname.slice('/transport-gzip/'.length));
      if (!file) return send(404, 'not found');
      const body = withHost(readFileSync(file), host);
      res.writeHead(200, {
        'content-type': 'application/xml',
        'content-encoding': 'gzip',
        'content-length': body.length,
      });
      res.end(body);
      return;
    }
    if (url.pathname === '/robots.txt') {
      return send(
        200,
        withHost(readFileSync(path.join(minisite, 'robots-with-sitemapindex', 'robots.txt')), host),
        'text/plain',
      );
    }
    if (url.pathname.startsWith('/minisite/')) {
      const file = resolveInside(minisite, url.pathname.slice('/minisite/'.length));
      if (!file) return send(404, 'not found');
      return send(200, withHost(readFileSync(file), host), contentType(file));
    }
    if (url.pathname.startsWith('/fixtures/')) {
      const file = resolveInside(fixturesDir, url.pathname.slice('/fixtures/'.length));
      if (!file) return send(404, 'not found');
      return send(200, readFileSync(file), contentType(file));
    }
    send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin: `http://${host}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
