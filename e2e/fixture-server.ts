// Entry point Playwright starts as a web server: the fixture corpus over HTTP on a fixed port, and beside it
// (port FIXTURE_PORT + 1, or SPOT_SITE_PORT) a tiny live site for spot-checks, with a robots.txt of its own:
//   /robots.txt  disallows /private only;  /, /target, /back  200 HTML pages (no canonical tag: self-canonical)
//   /gone-a and /back answer at once, or while held (POST /__hold) once released (POST /__release, or
//   30 s after the hold), so a spec can act on a run in progress however slow the machine;
//   /moved  301 to /target;  /hidden  200 with a robots noindex meta;  anything else  404
//   POST /monitor/sites  starts a monitored site whose sitemaps change between runs (e2e/monitor-site.ts)
//   POST /crawl/sites  starts a small site for the built-in crawler to crawl (e2e/crawl-site.ts)
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { type FakeAnswer, indexedAnswer, startFakeGoogle } from '@/lib/gsc/inspection-fake-google';
import { startFixtureServer } from '@/lib/test-support/fixture-server';
import { answerCrawlSite } from './crawl-site';
import { answerMonitor } from './monitor-site';

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

/** Pages a spec can hold, so a run is seen in progress. */
const HOLDABLE = new Set(['/gone-a', '/back']);

/** While a spec holds the slow pages: their answers waiting for the release. */
let held: { answers: (() => void)[]; timer: NodeJS.Timeout } | null = null;

function release(): void {
  if (!held) return;
  clearTimeout(held.timer);
  for (const send of held.answers) send();
  held = null;
}

const spotSite = http.createServer((req, res) => {
  if (answerMonitor(req, res) || answerCrawlSite(req, res)) return;
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method === 'POST' && path === '/__hold') {
    held ??= { answers: [], timer: setTimeout(release, 30_000) };
    return void res.writeHead(204).end();
  }
  if (req.method === 'POST' && path === '/__release') {
    release();
    return void res.writeHead(204).end();
  }
  if (HOLDABLE.has(path) && held) held.answers.push(() => answer(path, res));
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

// A fake Google for URL Inspection (port FIXTURE_PORT + 2, or GSC_FAKE_PORT; the web server's
// GOOGLE_OAUTH_TOKEN_URL and GSC_API_BASE_URL point at it): a throwaway service-account key made at start,
// offered at /service-account.json for the spec to upload, and scripted answers per path of the spot site
// (and Google's quota answer for every URL of a property named "quota-e2e…").
const gscPort = Number(process.env.GSC_FAKE_PORT ?? fixturePort + 2);
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clientEmail = 'e2e-inspector@e2e-project.iam.gserviceaccount.com';
const notIndexed = (
  url: string,
  coverageState: string,
  verdict = 'NEUTRAL',
  canonical = url,
): FakeAnswer => ({
  status: 200,
  body: {
    inspectionResult: {
      indexStatusResult: {
        verdict,
        coverageState,
        indexingState: 'INDEXING_ALLOWED',
        pageFetchState: 'SUCCESSFUL',
        robotsTxtState: 'ALLOWED',
        googleCanonical: canonical,
        userCanonical: url,
        lastCrawlTime: '2026-11-25T08:30:00Z',
        sitemap: [],
      },
    },
  },
});
await startFakeGoogle({
  port: gscPort,
  publicKey: keys.publicKey,
  clientEmail,
  serveKey: {
    type: 'service_account',
    project_id: 'e2e-project',
    private_key_id: 'e2e',
    private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
  },
  inspect: (url, siteUrl) => {
    // A property named "quota-e2e…": Google's quota answer, as when another tool spent the property's day.
    if (siteUrl.includes('quota-e2e')) {
      return {
        status: 429,
        body: {
          error: {
            code: 429,
            message:
              "Quota exceeded for quota metric 'URL inspection requests' and limit 'per day per site'.",
            status: 'RESOURCE_EXHAUSTED',
          },
        },
      };
    }
    const path = new URL(url).pathname;
    if (path === '/gone-a') return notIndexed(url, 'Not found (404)', 'FAIL');
    if (path === '/moved')
      return notIndexed(url, 'Page with redirect', 'NEUTRAL', url.replace('/moved', '/target'));
    if (path === '/hidden') return notIndexed(url, 'Excluded by ‘noindex’ tag');
    if (path === '/back') return notIndexed(url, 'Crawled - currently not indexed');
    return indexedAnswer(url);
  },
});

const server = await startFixtureServer(fixturePort);
console.log(`fixture server on ${server.origin}, spot-check site on http://127.0.0.1:${spotPort}`);
const close = () => {
  spotSite.close();
  void server.close().then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
