// Entry point Playwright starts as a web server: the fixture corpus over HTTP on a fixed port, and beside it
// (port FIXTURE_PORT + 1, or SPOT_SITE_PORT) a tiny live site for spot-checks, with a robots.txt of its own:
//   /robots.txt  disallows /private only;  /, /target, /back  200 HTML pages (no canonical tag: self-canonical)
//   /gone-a and /back answer after 2 s;  /moved  301 to /target;  /hidden  200 with a robots noindex meta;  anything else  404
import http from 'node:http';
import { startFixtureServer } from '@/lib/test-support/fixture-server';

const fixturePort = Number(process.env.FIXTURE_PORT ?? 3218);
const spotPort = Number(process.env.SPOT_SITE_PORT ?? fixturePort + 1);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1><p>${body}</p></body></html>`;
}

const PAGES: Record<string, string> = {
  '/': page('Spot site home', 'The home page of the spot-check site.'),
  '/target': page('Where moved pages go', 'The new home of a page that moved.'),
  '/back': page('Back again', 'This page answered 404 when the site was crawled; now it is back.'),
  '/hidden': page('Hidden page', 'Kept out of search engines.', '<meta name="robots" content="noindex">'),
};

/** Pages that answer late, so a run is seen in progress. */
const SLOW = new Set(['/gone-a', '/back']);

const spotSite = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (SLOW.has(path)) setTimeout(() => answer(path, res), 2000);
  else answer(path, res);
});

function answer(path: string, res: http.ServerResponse) {
  if (path === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
  } else if (path === '/moved') {
    res.writeHead(301, { location: '/target' }).end();
  } else if (PAGES[path]) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[path]);
  } else {
    res
      .writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
      .end(page('Not found', 'Nothing here.'));
  }
}
await new Promise<void>((resolve) => spotSite.listen(spotPort, '127.0.0.1', resolve));

const server = await startFixtureServer(fixturePort);
console.log(`fixture server on ${server.origin}, spot-check site on http://127.0.0.1:${spotPort}`);
const close = () => {
  spotSite.close();
  void server.close().then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
