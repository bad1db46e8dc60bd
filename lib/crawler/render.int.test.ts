// The rendering fetcher against loopback sites: one Chromium for the whole file. The site's server logs
// every request, so what a render fetched, and what it refused to, is read from the server's side.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderingFetcher, type RenderingFetcher } from './render';

interface Site {
  origin: string;
  port: number;
  requests: string[];
  connections(): number;
  close(): Promise<void>;
}

async function startSite(host: string, handler: http.RequestListener): Promise<Site> {
  const requests: string[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', () => connections++);
  // A WebSocket attempt arrives as an upgrade: counted as a connection, never answered.
  server.on('upgrade', (req, socket) => {
    requests.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': type, ...headers });
  res.end(body);
}

let site: Site;
let third: Site;
let fetcher: RenderingFetcher;
// The request a page's script makes and the server holds, to cancel a render while it waits.
const held: { arrived: () => void; responses: http.ServerResponse[] } = { arrived: () => {}, responses: [] };

beforeAll(async () => {
  third = await startSite('127.0.0.2', (_req, res) => send(res, 'text/javascript', 'window.tracked = true;'));
  const elsewhere = third.origin;
  site = await startSite('127.0.0.1', (req, res) => {
    const path = req.url ?? '/';
    if (path === '/app') {
      return send(
        res,
        'text/html; charset=utf-8',
        `<!doctype html><html><head><title>App</title>
<link rel="stylesheet" href="/style.css">
<link rel="preconnect" href="${elsewhere}">
<script src="${elsewhere}/tracker.js"></script>
<script src="/hop.js"></script>
<script src="/app.js" defer></script>
</head><body><a href="/static">Static</a><img src="/pixel.png" alt=""><div id="root"></div></body></html>`,
      );
    }
    if (path === '/app.js') {
      return send(
        res,
        'text/javascript',
        `fetch('/api/links').then((r) => r.json()).then((data) => {
  const root = document.getElementById('root');
  for (const href of data.links) {
    const a = document.createElement('a');
    a.href = href;
    root.append(a);
  }
  const secret = document.createElement('a');
  secret.href = '/js/private';
  secret.rel = 'nofollow';
  root.append(secret);
  const canonical = document.createElement('link');
  canonical.rel = 'canonical';
  canonical.href = '/app-canonical';
  document.head.append(canonical);
  const meta = document.createElement('meta');
  meta.name = 'robots';
  meta.content = 'noindex, follow';
  document.head.append(meta);
  new Image().src = '/tracked.gif';
  fetch('${elsewhere}/collect').catch(() => {});
  navigator.sendBeacon('/beacon', 'seen');
  try { new WebSocket('ws://127.0.0.2:${third.port}/live'); } catch {}
});`,
      );
    }
    if (path === '/api/links') {
      const links = [
        '/js/one',
        '/js/two#reviews',
        '/js/one',
        `${elsewhere}/partner`,
        'mailto:shop@example.com',
      ];
      return send(res, 'application/json', JSON.stringify({ links }));
    }
    // A same-origin script that redirects to another origin: not followed.
    if (path === '/hop.js') {
      res.writeHead(302, { location: `${elsewhere}/hop.js` });
      return res.end();
    }
    if (path === '/moved') {
      res.writeHead(301, { location: '/app-new' });
      return res.end();
    }
    if (path === '/headers') {
      return send(res, 'text/html', '<!doctype html><title>Headers</title><p>Plain</p>', {
        'x-robots-tag': 'noindex',
        link: '</header-canonical>; rel="canonical"',
      });
    }
    if (path === '/file.pdf') return send(res, 'application/pdf', '%PDF-1.4 <a href="/in-pdf">');
    const list = /^\/list\/(\d)$/.exec(path);
    if (list) {
      const n = list[1];
      return send(
        res,
        'text/html',
        `<!doctype html><body><script src="/shared.js"></script><script>addLink('/list/${n}/child');</script></body>`,
      );
    }
    if (path === '/shared.js') {
      return send(
        res,
        'text/javascript',
        `function addLink(href) {
  const a = document.createElement('a');
  a.href = href;
  document.body.append(a);
}`,
      );
    }
    // One page stores a cookie and local storage; a page rendered after it must not see them.
    if (path === '/state/write') {
      return send(
        res,
        'text/html',
        `<!doctype html><body><script>
document.cookie = 'visited=1; path=/';
localStorage.setItem('visited', '1');
if (document.cookie.includes('server=1') && localStorage.getItem('visited')) {
  const a = document.createElement('a'); a.href = '/stored'; document.body.append(a);
}
fetch('/api/cookie').then((r) => r.text()).then((sent) => {
  if (sent.includes('server=1') && sent.includes('visited=1')) {
    const a = document.createElement('a'); a.href = '/cookie-sent'; document.body.append(a);
  }
});</script></body>`,
        { 'set-cookie': 'server=1; Path=/' },
      );
    }
    if (path === '/api/cookie') return send(res, 'text/plain', req.headers.cookie ?? '');
    if (path === '/state/read') {
      return send(
        res,
        'text/html',
        `<!doctype html><body><script>
if (document.cookie !== '' || localStorage.length > 0) {
  const a = document.createElement('a'); a.href = '/leaked'; document.body.append(a);
}</script></body>`,
      );
    }
    if (path === '/slow') {
      return send(res, 'text/html', `<!doctype html><body><script>fetch('/api/hold');</script></body>`);
    }
    if (path === '/api/hold') {
      held.responses.push(res);
      held.arrived();
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not here');
  });
  fetcher = createRenderingFetcher({
    allowPrivateNetwork: true,
    allowedPorts: [site.port, third.port, 80],
    pagesAtOnce: 2,
  });
});

afterAll(async () => {
  await fetcher?.close();
  for (const res of held.responses) res.destroy();
  await site?.close();
  await third?.close();
});

const never = new AbortController().signal;
const requestsFor = (path: string) => site.requests.filter((line) => line === `GET ${path}`).length;

describe('createRenderingFetcher', () => {
  it('finds the links, canonical and robots meta a same-origin script adds, and nothing more', async () => {
    const raw = await (await fetch(`${site.origin}/app`)).text();
    // The plain HTML has none of what the script adds: only a render can find them.
    expect(raw).not.toContain('/js/one');
    expect(raw).not.toContain('canonical');
    site.requests.length = 0;

    const page = await fetcher.fetch(`${site.origin}/app`, never);

    expect(page.error).toBeNull();
    expect(page).toMatchObject({ status: 200, method: 'GET', contentType: 'text/html; charset=utf-8' });
    // Document order, fragments dropped, each once; nofollow and non-http links left out.
    expect(page.links).toEqual([
      `${site.origin}/static`,
      `${site.origin}/js/one`,
      `${site.origin}/js/two`,
      `${third.origin}/partner`,
    ]);
    expect(page.canonical).toBe(`${site.origin}/app-canonical`);
    expect(page.canonicalSource).toBe('link');
    expect(page.noindex).toBe(true);
    expect(page.noindexSources).toEqual(['meta:robots']);
    expect(page.nofollow).toBe(false);
    expect(page.responseMs).toBeGreaterThan(0);
    // Only the document, its same-origin scripts and their XHR; the redirecting script stops at its hop.
    expect([...site.requests].sort()).toEqual(['GET /api/links', 'GET /app', 'GET /app.js', 'GET /hop.js']);
    // The other origin was never asked for anything, nor even connected to (preconnect, WebSocket).
    expect(third.requests).toEqual([]);
    expect(third.connections()).toBe(0);
  });

  it('returns a redirect as the answer, unrendered, with its Location', async () => {
    site.requests.length = 0;
    const page = await fetcher.fetch(`${site.origin}/moved`, never);
    expect(page).toMatchObject({
      status: 301,
      redirectUrl: `${site.origin}/app-new`,
      links: [],
      error: null,
    });
    expect(site.requests).toEqual(['GET /moved']);
  });

  it('reads noindex and the canonical from the headers', async () => {
    const page = await fetcher.fetch(`${site.origin}/headers`, never);
    expect(page).toMatchObject({
      status: 200,
      canonical: `${site.origin}/header-canonical`,
      canonicalSource: 'header',
      noindex: true,
      noindexSources: ['header'],
      error: null,
    });
  });

  it('does not render a non-HTML answer', async () => {
    site.requests.length = 0;
    const page = await fetcher.fetch(`${site.origin}/file.pdf`, never);
    expect(page).toMatchObject({ status: 200, contentType: 'application/pdf', links: [], error: null });
    expect(site.requests).toEqual(['GET /file.pdf']);
  });

  it('refuses an address lib/net refuses, without asking it', async () => {
    const page = await fetcher.fetch('http://169.254.169.254/latest/meta-data/', never);
    expect(page.status).toBeNull();
    expect(page.error?.code).toBe('blocked_address');
    expect(page.error?.message).toContain('169.254.169.254');
  });

  it('renders pages called at once, each its own, asking for their shared script once', async () => {
    site.requests.length = 0;
    const pages = await Promise.all(
      [1, 2, 3, 4].map((n) => fetcher.fetch(`${site.origin}/list/${n}`, never)),
    );
    expect(pages.map((page) => page.links)).toEqual(
      [1, 2, 3, 4].map((n) => [`${site.origin}/list/${n}/child`]),
    );
    expect(requestsFor('/shared.js')).toBe(1);
  });

  it('leaves no cookie or storage of one page to the next', async () => {
    const writer = await fetcher.fetch(`${site.origin}/state/write`, never);
    // The page could store both (and its XHR sent its cookies): so the next page's empty jar is the wipe's.
    expect(writer.links).toEqual([`${site.origin}/stored`, `${site.origin}/cookie-sent`]);
    const reader = await fetcher.fetch(`${site.origin}/state/read`, never);
    expect(reader.error).toBeNull();
    expect(reader.links).toEqual([]);
  });

  it('ends a render that is cancelled while the page waits on its network', async () => {
    const arrived = new Promise<void>((resolve) => {
      held.arrived = resolve;
    });
    const stop = new AbortController();
    const pending = fetcher.fetch(`${site.origin}/slow`, stop.signal);
    await arrived;
    stop.abort();
    const page = await pending;
    expect(page.status).toBeNull();
    expect(page.error?.code).toBe('aborted');
    expect(requestsFor('/api/hold')).toBe(1);
  });

  it('says so on every page when Chromium cannot start', async () => {
    const missing = createRenderingFetcher({
      executablePath: '/nonexistent/chromium',
      allowPrivateNetwork: true,
      allowedPorts: [site.port],
    });
    try {
      for (const path of ['/app', '/static']) {
        const page = await missing.fetch(`${site.origin}${path}`, never);
        expect(page.status).toBeNull();
        expect(page.error?.code).toBe('render_failed');
        expect(page.error?.message).toContain('/nonexistent/chromium');
      }
    } finally {
      await missing.close();
    }
  });
});
