// The rendering PageFetcher: a page is loaded in headless Chromium (Debian's `chromium`, driven by
// playwright-core) and its links, canonical and robots meta are read from the DOM its scripts built.
// Every request the page makes goes through lib/net (render-network.ts); Chromium itself reaches nothing.
import net from 'node:net';
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core';
import { resolveOptions } from '@/lib/net/options';
import { NetError } from '@/lib/net/types';
import { createScriptCache } from './render-cache';
import { failed, fromAnswer, readDom } from './render-dom';
import { createPageNetwork, type PageNetwork } from './render-network';
import { createSlots } from './render-slots';
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
  /** Bytes of scripts kept for later pages (default 32 MiB). */
  scriptCacheBytes?: number;
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
  scriptCacheBytes: 32 * 1024 * 1024,
};

/**
 * A browser tab kept between pages: a fresh context for every page cost four times the CPU (a renderer
 * process each time: 0.45 s a page against 0.1 s, measured on this 2-core machine). Each tab has its own
 * context, and between pages its origin's cookies and storage are wiped, so no page sees another's state.
 */
interface Tab {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** The render under way; requests arriving between renders are refused. */
  current: PageNetwork | null;
  /** Pages rendered in it so far. */
  uses: number;
}

// A tab is replaced after this many pages, so whatever a long crawl's pages leave behind in a renderer
// (leaks of the sites' scripts, caches) is bounded.
const PAGES_PER_TAB = 200;

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
  const scripts = createScriptCache(options.scriptCacheBytes ?? DEFAULTS.scriptCacheBytes);
  const slots = createSlots(settings.pagesAtOnce);
  const idleTabs: Tab[] = [];
  let browser: Promise<Browser> | null = null;
  let proxy: net.Server | null = null;
  let closed = false;

  function launch(): Promise<Browser> {
    if (browser) return browser;
    if (closed) return Promise.reject(new Error('the rendering browser was closed'));
    const launching = (async () => {
      proxy ??= await startDeadProxy();
      const { port } = proxy.address() as net.AddressInfo;
      const launched = await chromium
        .launch({
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
            // (WebSockets, connection hints) meets a proxy that closes every connection, loopback
            // included, so Chromium itself opens no socket to the site or anyone else.
            `--proxy-server=http://127.0.0.1:${port}`,
            '--proxy-bypass-list=<-loopback>',
            '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          ],
        })
        .catch((err: unknown) => {
          const why = firstLine(err).replace(/^browserType\.launch: /, '');
          throw new Error(
            `Chromium could not start from ${executablePath} (install Debian's chromium, or set CHROMIUM_PATH): ${why}`,
          );
        });
      launched.on('disconnected', () => {
        // A crashed browser is started again for the next page; its tabs went with it.
        if (browser === launching) browser = null;
        idleTabs.splice(0);
      });
      return launched;
    })();
    browser = launching;
    return launching;
  }

  async function openTab(): Promise<Tab> {
    const launched = await launch();
    const context = await launched.newContext({
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent,
      viewport: { width: 1366, height: 900 },
    });
    const router: { current: PageNetwork | null; uses: number } = { current: null, uses: 0 };
    await context.route(/.*/, (route) =>
      (router.current ? router.current.handle(route) : route.abort('blockedbyclient')).catch(() => undefined),
    );
    // WebSockets never open (the dead proxy would stop them too; this ends them before they connect).
    await context.routeWebSocket(/.*/, (ws) => ws.close());
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    return Object.assign(router, { context, page, cdp });
  }

  /** Leaves the tab blank and forgets what the page stored, ready for the next page of any site. */
  async function resetTab(tab: Tab, origin: string): Promise<void> {
    tab.current = null;
    await tab.page.goto('about:blank');
    await tab.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await tab.context.clearCookies();
  }

  async function fetchPage(url: string, signal: AbortSignal): Promise<PageFetch> {
    if (closed) return failed(url, new Date(), 'aborted', 'The rendering browser was closed');
    const release = await slots.take(signal);
    if (release === null) return failed(url, new Date(), 'aborted', `The request for ${url} was cancelled`);
    try {
      // Crawl time is when the page's turn came, not when it was asked for.
      return await render(url, signal, new Date());
    } finally {
      release();
    }
  }

  async function render(url: string, signal: AbortSignal, fetchedAt: Date): Promise<PageFetch> {
    const started = performance.now();
    const stop = new AbortController();
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, settings.timeoutMs);
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort);
    if (signal.aborted) stop.abort();
    let network: PageNetwork | null = null;
    const ended = (): PageFetch => {
      if (!timedOut) return failed(url, fetchedAt, 'aborted', `The request for ${url} was cancelled`);
      const error = {
        code: 'timeout',
        message: `${url} did not render within ${settings.timeoutMs / 1000} s`,
      };
      // A page whose scripts never let it load still answered: its status and headers are kept.
      const answer = network?.document();
      if (answer) return { ...fromAnswer(answer, null, fetchedAt, null), error };
      return failed(url, fetchedAt, error.code, error.message);
    };
    let tab: Tab | null = null;
    let reusable = false;
    try {
      if (stop.signal.aborted) return ended();
      tab = idleTabs.pop() ?? (await openTab());
      const open = tab;
      // Closing the tab's context ends whatever the page is waiting for; the tab is not used again.
      stop.signal.addEventListener('abort', () => void open.context.close().catch(() => undefined));
      const current = createPageNetwork(url, {
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
        scripts,
      });
      network = current;
      tab.current = current;
      tab.uses++;
      const loaded = await tab.page.goto(url, { waitUntil: 'load', timeout: settings.timeoutMs }).then(
        () => null,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
      if (stop.signal.aborted) return ended();
      const answer = current.document();
      let result: PageFetch;
      if (answer === null) {
        const error = current.error();
        result = error
          ? failed(url, fetchedAt, error.code, error.message)
          : failed(url, fetchedAt, 'render_failed', `${url} could not be rendered: ${firstLine(loaded)}`);
      } else if (answer.body === null) {
        result = fromAnswer(answer, null, fetchedAt, answer.answeredAt - started);
      } else if (loaded !== null) {
        const message = `${url} answered but did not render: ${firstLine(loaded)}`;
        result = { ...fromAnswer(answer, null, fetchedAt, null), error: { code: 'render_failed', message } };
      } else {
        await current.quiet(settings.quietMs, settings.settleMs);
        if (stop.signal.aborted) return ended();
        const dom = await tab.page.evaluate(readDom, settings.maxLinks);
        result = fromAnswer(answer, dom, fetchedAt, performance.now() - started);
      }
      // A tab that cannot be wiped is closed; the page's answer stands.
      reusable = await resetTab(tab, new URL(url).origin).then(
        () => !stop.signal.aborted,
        () => false,
      );
      return result;
    } catch (err) {
      if (stop.signal.aborted) return ended();
      if (err instanceof NetError) return failed(url, fetchedAt, err.code, err.message);
      return failed(url, fetchedAt, 'render_failed', `${url} could not be rendered: ${firstLine(err)}`);
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      if (tab && reusable && !closed && tab.uses < PAGES_PER_TAB) idleTabs.push(tab);
      else if (tab) await tab.context.close().catch(() => undefined);
    }
  }

  return {
    fetch: fetchPage,
    async close() {
      closed = true;
      idleTabs.splice(0);
      const open = browser;
      browser = null;
      await open?.then((b) => b.close()).catch(() => undefined);
      const server = proxy;
      proxy = null;
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
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

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
