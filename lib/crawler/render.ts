// The rendering PageFetcher: a page is loaded in headless Chromium (Debian's `chromium`, driven by
// playwright-core) and its links, canonical and robots meta are read from the DOM its scripts built.
// Every request the page makes goes through lib/net (render-network.ts); Chromium itself reaches nothing.
import net from 'node:net';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { resolveOptions } from '@/lib/net/options';
import { parseRetryAfter } from '@/lib/net/retry-policy';
import { NetError } from '@/lib/net/types';
import { canonicalFromLinkHeader, headerSaysNoindex } from '@/lib/spot-check/header-signals';
import { saysNoindex } from '@/lib/spot-check/html-signals';
import { type DocumentAnswer, headerText, routePageNetwork } from './render-network';
import type { PageFetch, PageFetcher } from './types';

export interface RenderingFetcherOptions {
  /** Default: env CHROMIUM_PATH, else /usr/bin/chromium (Debian's package). */
  executablePath?: string;
  /** Passed to every safeFetch (the tests' loopback servers); default: lib/net's environment rule. */
  allowPrivateNetwork?: boolean;
  allowedPorts?: number[];
  userAgent?: string;
  /** One page, from the document request to the DOM read (default 30_000). */
  timeoutMs?: number;
  /** After the load event, the longest wait for the page's scripts and XHR to finish (default 5_000). */
  settleMs?: number;
  /** The network counts as finished once nothing was in flight for this long (default 500, as Chromium's
   * own "network idle"). */
  quietMs?: number;
  /** Bytes of one response (document, script, XHR); a longer document is rendered cut (default 5 MiB). */
  maxBytes?: number;
  /** Links read from one page at most; more set `truncated` (default 20_000). */
  maxLinks?: number;
  /** Pages rendered at once; further calls wait their turn (default 4). */
  pagesAtOnce?: number;
  /** Whether a same-origin script or XHR may be fetched (the crawl's robots.txt rules); default all. */
  allowResource?: (url: string) => boolean;
}

export interface RenderingFetcher {
  fetch: PageFetcher;
  /** Closes the browser; pages still rendering end with an error. */
  close(): Promise<void>;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  settleMs: 5_000,
  quietMs: 500,
  maxBytes: 5 * 1024 * 1024,
  maxLinks: 20_000,
  pagesAtOnce: 4,
};

/** The DOM as read in the page: links already absolute, fragment-free and each once. */
interface DomSignals {
  links: string[];
  moreLinks: boolean;
  canonical: string | null;
  robots: { name: string; content: string }[];
}

export function createRenderingFetcher(options: RenderingFetcherOptions = {}): RenderingFetcher {
  const settings = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    settleMs: options.settleMs ?? DEFAULTS.settleMs,
    quietMs: options.quietMs ?? DEFAULTS.quietMs,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxLinks: options.maxLinks ?? DEFAULTS.maxLinks,
    pagesAtOnce: options.pagesAtOnce ?? DEFAULTS.pagesAtOnce,
  };
  const executablePath = options.executablePath ?? (process.env.CHROMIUM_PATH || '/usr/bin/chromium');
  const userAgent = resolveOptions({ userAgent: options.userAgent }).userAgent;
  const allowResource = options.allowResource ?? (() => true);
  const slots = createSlots(settings.pagesAtOnce);
  let browser: Promise<Browser> | null = null;
  let proxy: net.Server | null = null;
  let closed = false;

  function launch(): Promise<Browser> {
    if (browser) return browser;
    if (closed) return Promise.reject(new Error('the rendering browser was closed'));
    const launching = (async () => {
      proxy ??= await startDeadProxy();
      const { port } = proxy.address() as net.AddressInfo;
      const launched = await chromium.launch({
        executablePath,
        timeout: 30_000,
        // The worker closes the fetcher on its own shutdown; Chromium ends with the pipe if it is killed.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          // Requests are answered by the router before they reach the network. What would bypass it
          // (preconnect and DNS-prefetch hints, WebSockets) meets a proxy that closes every connection,
          // loopback included, so Chromium itself opens no socket to the site or anyone else.
          `--proxy-server=http://127.0.0.1:${port}`,
          '--proxy-bypass-list=<-loopback>',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
        ],
      });
      // A crashed browser is started again for the next page.
      launched.on('disconnected', () => {
        if (browser === launching) browser = null;
      });
      return launched;
    })();
    browser = launching;
    return launching;
  }

  async function fetchPage(url: string, signal: AbortSignal): Promise<PageFetch> {
    const fetchedAt = new Date();
    const started = performance.now();
    if (closed) return failed(url, fetchedAt, 'aborted', 'The rendering browser was closed');
    const release = await slots.take(signal);
    if (release === null) return failed(url, fetchedAt, 'aborted', `The request for ${url} was cancelled`);
    try {
      return await render(url, signal, fetchedAt, started);
    } finally {
      release();
    }
  }

  async function render(url: string, signal: AbortSignal, fetchedAt: Date, started: number) {
    const stop = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, settings.timeoutMs);
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort);
    if (signal.aborted) stop.abort();
    let context: BrowserContext | null = null;
    const ended = () =>
      timedOut
        ? failed(url, fetchedAt, 'timeout', `${url} did not render within ${settings.timeoutMs / 1000} s`)
        : failed(url, fetchedAt, 'aborted', `The request for ${url} was cancelled`);
    try {
      if (stop.signal.aborted) return ended();
      const launched = await launch();
      context = await launched.newContext({
        serviceWorkers: 'block',
        acceptDownloads: false,
        userAgent,
        viewport: { width: 1366, height: 900 },
      });
      const open = context;
      // Closing the context ends whatever the page is waiting for.
      stop.signal.addEventListener('abort', () => void open.close().catch(() => undefined));
      const network = await routePageNetwork(context, url, {
        net: {
          allowPrivateNetwork: options.allowPrivateNetwork,
          allowedPorts: options.allowedPorts,
          userAgent,
          timeoutMs: settings.timeoutMs,
          // 429 and 503 are the page's answer: the engine pauses the host, it does not hammer it.
          retries: 0,
          signal: stop.signal,
        },
        maxBytes: settings.maxBytes,
        allowResource,
      });
      const page = await context.newPage();
      const loaded = await page.goto(url, { waitUntil: 'load', timeout: settings.timeoutMs }).then(
        () => null,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
      if (stop.signal.aborted) return ended();
      const answer = network.document();
      if (answer === null) {
        const error = network.error();
        if (error) return failed(url, fetchedAt, error.code, error.message);
        return failed(url, fetchedAt, 'render_failed', `${url} could not be rendered: ${loaded?.message}`);
      }
      if (answer.body === null) return fromAnswer(answer, null, fetchedAt, answer.answeredAt - started);
      if (loaded !== null) {
        const message = `${url} answered but did not render: ${firstLine(loaded.message)}`;
        return { ...fromAnswer(answer, null, fetchedAt, null), error: { code: 'render_failed', message } };
      }
      await network.quiet(settings.quietMs, settings.settleMs);
      if (stop.signal.aborted) return ended();
      const dom = await page.evaluate(readDom, settings.maxLinks);
      return fromAnswer(answer, dom, fetchedAt, performance.now() - started);
    } catch (err) {
      if (stop.signal.aborted) return ended();
      if (err instanceof NetError) return failed(url, fetchedAt, err.code, err.message);
      const message = err instanceof Error ? firstLine(err.message) : String(err);
      return failed(url, fetchedAt, 'render_failed', `${url} could not be rendered: ${message}`);
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      await context?.close().catch(() => undefined);
    }
  }

  return {
    fetch: fetchPage,
    async close() {
      closed = true;
      const open = browser;
      browser = null;
      await open?.then((b) => b.close()).catch(() => undefined);
      const server = proxy;
      proxy = null;
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the page says, from its answer's headers and (when rendered) its DOM. */
function fromAnswer(
  answer: DocumentAnswer,
  dom: DomSignals | null,
  fetchedAt: Date,
  responseMs: number | null,
): PageFetch {
  const { url, status, headers } = answer;
  const noindexSources = new Set<string>();
  let nofollow = false;
  for (const meta of dom?.robots ?? []) {
    if (saysNoindex(meta.content)) noindexSources.add(`meta:${meta.name}`);
    if (saysNofollow(meta.content)) nofollow = true;
  }
  if (headerSaysNoindex(headers['x-robots-tag'])) noindexSources.add('header');
  const headerCanonical = canonicalFromLinkHeader(headers.link, url);
  const canonical = dom?.canonical ?? headerCanonical;
  return {
    url,
    status,
    redirectUrl: redirectTarget(status, headerText(headers.location), url),
    contentType: headerText(headers['content-type']),
    canonical,
    // The page's own tag wins over the header when both are present.
    canonicalSource: dom?.canonical ? 'link' : headerCanonical ? 'header' : null,
    noindex: noindexSources.size > 0,
    noindexSources: [...noindexSources],
    nofollow,
    blockedByRobots: false,
    method: 'GET',
    responseMs: responseMs === null ? null : Math.round(responseMs),
    fetchedAt,
    links: dom?.links ?? [],
    retryAfterMs: status === 429 || status === 503 ? (parseRetryAfter(headers['retry-after']) ?? null) : null,
    truncated: answer.truncated || (dom?.moreLinks ?? false),
    error: null,
  };
}

/**
 * Runs inside the page. Plain loops only: a bundler's helpers (a function's name kept by a wrapper)
 * do not exist in the page, so nothing here may be a named inner function.
 */
function readDom(maxLinks: number): DomSignals {
  const base = document.baseURI;
  const seen = new Set<string>();
  const links: string[] = [];
  let moreLinks = false;
  for (const element of Array.from(document.querySelectorAll('a[href], area[href], link[href]'))) {
    const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (element.localName === 'link' && !rels.includes('next') && !rels.includes('prev')) continue;
    if (rels.includes('nofollow')) continue;
    let href: URL;
    try {
      href = new URL((element.getAttribute('href') ?? '').trim(), base);
    } catch {
      continue;
    }
    if (href.protocol !== 'http:' && href.protocol !== 'https:') continue;
    href.hash = '';
    if (seen.has(href.href)) continue;
    if (links.length >= maxLinks) {
      moreLinks = true;
      break;
    }
    seen.add(href.href);
    links.push(href.href);
  }
  let canonical: string | null = null;
  for (const element of Array.from(document.head?.querySelectorAll('link[href]') ?? [])) {
    const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const href = (element.getAttribute('href') ?? '').trim();
    if (!rels.includes('canonical') || href === '') continue;
    try {
      const target = new URL(href, base);
      if (target.protocol === 'http:' || target.protocol === 'https:') canonical = target.href;
    } catch {
      // An unreadable canonical is none, as the plain reader treats it.
    }
    break;
  }
  const robots: DomSignals['robots'] = [];
  for (const element of Array.from(document.querySelectorAll('meta[name][content]'))) {
    const name = (element.getAttribute('name') ?? '').trim().toLowerCase();
    if (name === 'robots' || name === 'googlebot')
      robots.push({ name, content: element.getAttribute('content') ?? '' });
  }
  return { links, moreLinks, canonical, robots };
}

function saysNofollow(directives: string): boolean {
  return directives
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .some((d) => d === 'nofollow' || d === 'none');
}

function redirectTarget(status: number, location: string | null, url: string): string | null {
  if (status < 300 || status > 399 || location === null) return null;
  try {
    return new URL(location, url).href;
  } catch {
    return null;
  }
}

function failed(url: string, fetchedAt: Date, code: string, message: string): PageFetch {
  return {
    url,
    status: null,
    redirectUrl: null,
    contentType: null,
    canonical: null,
    canonicalSource: null,
    noindex: false,
    noindexSources: [],
    nofollow: false,
    blockedByRobots: false,
    method: 'GET',
    responseMs: null,
    fetchedAt,
    links: [],
    retryAfterMs: null,
    truncated: false,
    error: { code, message },
  };
}

/** Up to `size` renders at once; a cancelled wait gives null and takes no slot. */
function createSlots(size: number) {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
  return {
    take(signal: AbortSignal): Promise<(() => void) | null> {
      if (signal.aborted) return Promise.resolve(null);
      if (busy < size) {
        busy++;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => {
        const turn = () => {
          signal.removeEventListener('abort', cancel);
          resolve(release);
        };
        const cancel = () => {
          const at = waiting.indexOf(turn);
          if (at >= 0) waiting.splice(at, 1);
          resolve(null);
        };
        waiting.push(turn);
        signal.addEventListener('abort', cancel, { once: true });
      });
    },
  };
}

/** A local port that accepts connections and closes them at once: Chromium's proxy, so it reaches nothing. */
async function startDeadProxy(): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return server;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
