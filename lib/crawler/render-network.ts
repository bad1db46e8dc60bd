// The network of one rendered page: every request Chromium makes is answered here, through lib/net's
// safeFetch (SSRF rules, size and time limits), or refused. It also tells when the page's network has
// gone quiet, which is when its scripts are taken to have finished drawing links.
import type { Request, Route } from 'playwright-core';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError, type SafeFetchOptions, type SafeResponse } from '@/lib/net/types';
import type { CachedResponse, ScriptCache } from './render-cache';

/** The document's own answer, read before Chromium sees it. */
export interface DocumentAnswer {
  url: string;
  status: number;
  headers: SafeResponse['headers'];
  /** Null when the answer is not rendered (not a 200 HTML page): its body was never read. */
  body: Buffer | null;
  /** The body was cut at the byte cap. */
  truncated: boolean;
  /** When its headers were in (performance.now()). */
  answeredAt: number;
}

export interface PageNetworkOptions {
  net: SafeFetchOptions;
  /** Bytes of one response delivered to the page (document, script, XHR); a longer document is cut. */
  maxBytes: number;
  /** Whether a same-origin script or XHR may be fetched (the crawl's robots.txt rules, for instance). */
  allowResource: (url: string) => boolean;
  /** Same-origin scripts already fetched by this crawl. */
  scripts: ScriptCache;
}

// The only subresources a render fetches: what can add links, a canonical or a robots meta to the DOM.
// Images, media, fonts, stylesheets, frames, beacons, manifests and everything of another origin are
// refused: a render must not send the site's visitors' third-party requests (analytics, ads, CDNs), nor
// spend the host's patience on bytes that cannot change what the crawl reads.
const FETCHED_KINDS = new Set(['script', 'xhr', 'fetch']);
const MAX_SCRIPT_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Request headers never passed on from Chromium: safeFetch sets its own identity, encoding and host, and
// the client hints would name HeadlessChrome beside the product's User-Agent. Cookies do pass: the page's
// own, to its own origin, within this one render (the jar is wiped before the next page).
const DROPPED_REQUEST_HEADERS = new Set(['host', 'user-agent', 'accept-encoding', 'connection', 'range']);
// safeFetch hands over decoded bytes, so these no longer describe the body Chromium receives.
const DROPPED_RESPONSE_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
]);

export interface PageNetwork {
  /** Answers one request of the page (the tab's router calls it for every request while this render runs). */
  handle(route: Route): Promise<void>;
  /** The document's answer once it came (null: not yet, or it failed: see `error`). */
  document(): DocumentAnswer | null;
  error(): NetError | null;
  /** Resolves once no request has been in flight for `quietMs`, or after `maxMs`, whichever is first. */
  quiet(quietMs: number, maxMs: number): Promise<void>;
}

/** The network of one render of `pageUrl`. */
export function createPageNetwork(pageUrl: string, options: PageNetworkOptions): PageNetwork {
  const origin = new URL(pageUrl).origin;
  let answer: DocumentAnswer | null = null;
  let failure: NetError | null = null;
  let documentAsked = false;
  let inFlight = 0;
  const idleWaiters = new Set<() => void>();

  const begin = () => {
    inFlight++;
  };
  const end = () => {
    inFlight--;
    if (inFlight === 0) for (const wake of idleWaiters) wake();
  };

  async function handle(route: Route): Promise<void> {
    const request = route.request();
    if (isMainDocument(request) && !documentAsked) {
      documentAsked = true;
      begin();
      try {
        answer = await fetchDocument(pageUrl, options);
        if (answer.body === null) await route.abort('blockedbyclient');
        else await fulfil(route, answer.status, answer.headers, answer.body);
      } catch (err) {
        if (err instanceof NetError) failure = err;
        await abortQuietly(route);
      } finally {
        end();
      }
      return;
    }
    // Only GETs: a crawler never posts forms or beacons, and a second navigation (a script moving the
    // page elsewhere) is not this URL's answer.
    if (
      request.method() !== 'GET' ||
      request.isNavigationRequest() ||
      !FETCHED_KINDS.has(request.resourceType()) ||
      !sameOrigin(request.url(), origin) ||
      !options.allowResource(request.url())
    ) {
      await abortQuietly(route);
      return;
    }
    begin();
    try {
      const load = () => fetchResource(request, origin, options);
      const resource =
        request.resourceType() === 'script' ? await options.scripts.get(request.url(), load) : await load();
      if (resource === null) await abortQuietly(route);
      else await fulfil(route, resource.status, resource.headers, resource.body);
    } catch {
      // A script that fails to load is the page's problem, as for a visitor; the page still renders.
      await abortQuietly(route);
    } finally {
      end();
    }
  }

  return {
    handle,
    document: () => answer,
    error: () => failure,
    quiet(quietMs, maxMs) {
      return new Promise<void>((resolve) => {
        let quietTimer: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(quietTimer);
          clearTimeout(limit);
          idleWaiters.delete(onIdle);
          resolve();
        };
        const onIdle = () => {
          clearTimeout(quietTimer);
          quietTimer = setTimeout(() => (inFlight === 0 ? done() : undefined), quietMs);
        };
        const limit = setTimeout(done, maxMs);
        idleWaiters.add(onIdle);
        if (inFlight === 0) onIdle();
      });
    },
  };
}

function isMainDocument(request: Request): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    const frame = request.frame();
    return frame.parentFrame() === null && frame.page().mainFrame() === frame;
  } catch {
    // A request without a frame (a worker's) is never the document.
    return false;
  }
}

/** The document, redirects not followed: a 3xx or any other answer than 200 HTML is returned unread. */
async function fetchDocument(url: string, options: PageNetworkOptions): Promise<DocumentAnswer> {
  const response = await safeFetch(url, {
    ...options.net,
    followRedirects: false,
    headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
  });
  const answeredAt = performance.now();
  const contentType = headerText(response.headers['content-type']);
  if (response.status !== 200 || !isHtml(contentType)) {
    response.body.destroy();
    return {
      url,
      status: response.status,
      headers: response.headers,
      body: null,
      truncated: false,
      answeredAt,
    };
  }
  const { bytes, truncated } = await readCapped(response, options.maxBytes);
  return { url, status: response.status, headers: response.headers, body: bytes, truncated, answeredAt };
}

/** A same-origin script or XHR; a redirect is followed here only while it stays on the origin. */
async function fetchResource(
  request: Request,
  origin: string,
  options: PageNetworkOptions,
): Promise<CachedResponse | null> {
  const headers = passedHeaders(await request.allHeaders());
  let url = request.url();
  for (let hop = 0; hop <= MAX_SCRIPT_REDIRECTS; hop++) {
    const response = await safeFetch(url, { ...options.net, followRedirects: false, headers });
    const location = headerText(response.headers.location);
    if (!REDIRECTS.has(response.status) || location === null) {
      const { bytes, truncated } = await readCapped(response, options.maxBytes);
      // Half a script is worse than none: it would fail to parse, or run cut short.
      return truncated ? null : { status: response.status, headers: response.headers, body: bytes };
    }
    response.body.destroy();
    // Chromium would follow a fulfilled redirect itself, outside this router: so it never sees one.
    const next = new URL(location, url).href;
    if (!sameOrigin(next, origin) || !options.allowResource(next)) return null;
    url = next;
  }
  return null;
}

async function readCapped(
  response: SafeResponse,
  cap: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let read = 0;
  let truncated = false;
  try {
    for await (const chunk of response.body) {
      const room = cap - read;
      if (chunk.length > room) {
        chunks.push(Buffer.from(chunk.subarray(0, room)));
        truncated = true;
        break;
      }
      chunks.push(Buffer.from(chunk));
      read += chunk.length;
    }
  } finally {
    response.body.destroy();
  }
  return { bytes: Buffer.concat(chunks), truncated };
}

async function fulfil(route: Route, status: number, headers: SafeResponse['headers'], body: Buffer) {
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    // Playwright reads several Set-Cookie lines joined by newlines.
    passed[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  await route.fulfill({ status, headers: passed, body });
}

async function abortQuietly(route: Route): Promise<void> {
  // The page may be gone already (the render ended or was cancelled): nothing is left to refuse.
  await route.abort('blockedbyclient').catch(() => undefined);
}

function passedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) =>
        !DROPPED_REQUEST_HEADERS.has(name.toLowerCase()) && !name.toLowerCase().startsWith('sec-ch-'),
    ),
  );
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export function isHtml(contentType: string | null): boolean {
  // No Content-Type at all: read it as HTML, as a browser sniffing a page would.
  if (contentType === null) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

export function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text ?? null;
}
