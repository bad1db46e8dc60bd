// The shapes of the built-in crawler: its settings (what an audit asks for), one fetched page, the store
// that keeps its frontier in Postgres (so a crawl resumes after its worker dies), and what it reports.
// The engine (engine.ts) knows no database: it talks to a CrawlStore, and the audit's crawl step gives it
// the Postgres one (store.ts); tests give it one in memory.

/** `site`: follow links from the start URL; `list`: fetch exactly the declared URLs (and their redirects). */
export type CrawlMode = 'site' | 'list';

export interface CrawlerSettings {
  mode: CrawlMode;
  /** Site mode's first URL; null: the site root of the audit's first sitemap URL. */
  startUrl: string | null;
  maxPages: number;
  maxDepth: number;
  /** Requests in flight at once per host (robots.txt included). */
  concurrencyPerHost: number;
  /** Read links, canonical and robots from the DOM a headless Chromium renders. */
  render: boolean;
}

/** Why a URL was not fetched: the limit that cut its section. */
export type CutReason =
  | 'max_pages' // the crawl's page limit
  | 'max_depth' // deeper than maxDepth
  | 'pattern_budget' // its path pattern (digits as *) had its share of pages already
  | 'query_variants' // its path had its share of query strings already
  | 'host_refused' // its host kept answering 429/503, or asked for a wait longer than the crawl allows
  | 'failing' // the safeguard stopped the crawl: most recent requests failed
  | 'cancelled'; // the crawl ended before it (the audit's budget or a stop)

/** One URL in the frontier: admitted (deduplicated, in scope, within the limits), fetched or not. */
export interface FrontierItem {
  /** The URL as it will be fetched (fragment dropped, session ids stripped). */
  url: string;
  /** The audit profile's key of `url`: the frontier's identity. */
  key: string;
  depth: number;
  /** Admission order (1, 2, …): with depth, the order pages are fetched in (breadth first). */
  seq: number;
  /** Set once fetched (or decided without a request: robots, a non-HTTP answer). */
  done: boolean;
}

/** One redirect answer on the way (the page's own row records its first hop; its target is its own row). */
export interface CrawlHop {
  url: string;
  status: number;
  location: string | null;
}

/** What one request (a GET, or a HEAD for a resource) of a frontier URL found. Redirects are not
 * followed within a fetch: a 3xx is the page's answer, and its in-scope Location is admitted as a URL. */
export interface PageFetch {
  url: string;
  /** null: no answer (error set, or blocked by robots.txt and never requested). */
  status: number | null;
  /** The resolved Location of a 3xx answer. */
  redirectUrl: string | null;
  contentType: string | null;
  /** Absolute canonical from <link rel=canonical> in <head>, else the Link header. */
  canonical: string | null;
  canonicalSource: 'link' | 'header' | null;
  /** noindex from meta robots/googlebot or X-Robots-Tag. */
  noindex: boolean;
  noindexSources: string[];
  /** <meta name=robots content=nofollow>: the page's links are counted, not followed. */
  nofollow: boolean;
  blockedByRobots: boolean;
  method: 'GET' | 'HEAD' | null;
  /** Request start to the last byte read. */
  responseMs: number | null;
  fetchedAt: Date;
  /** Absolute http(s) links of an HTML answer (a, area, link rel=next/prev), fragments dropped, each once,
   * in document order; empty for non-HTML answers (never parsed). */
  links: string[];
  /** Distinct URLs the page links to only with rel=nofollow (left out of `links`); absent when not read. */
  nofollowLinks?: number;
  /** The Retry-After asked for with a 429/503, in ms. */
  retryAfterMs: number | null;
  /** The body was cut at the byte cap: links after the cut are unseen. */
  truncated: boolean;
  error: { code: string; message: string } | null;
}

/** A URL's row before anything is known of it: no answer, no signals; fetchers and the engine fill it. */
export function unanswered(url: string, fetchedAt: Date, method: PageFetch['method'] = null): PageFetch {
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
    method,
    responseMs: null,
    fetchedAt,
    links: [],
    retryAfterMs: null,
    truncated: false,
    error: null,
  };
}

/** Fetches one URL: the plain HTTP one (fetch-page.ts) or the rendering one (render.ts). */
export type PageFetcher = (url: string, signal: AbortSignal) => Promise<PageFetch>;

/** A fetched page as the store keeps it: its answer, with the links it adds to the frontier. */
export interface CrawledPage extends PageFetch {
  /** The frontier item's seq: what ties the answer to its URL in the store. */
  seq: number;
  key: string;
  depth: number;
  /** Links to other hosts (counted, never fetched). */
  outlinksExternal: number;
  /** Links to in-scope pages (each page once). */
  outlinksInternal: number;
}

/** Per section (host + first path segment, as the reconciliation names them: `h/blog`, `h/`). */
export interface SectionCoverage {
  section: string;
  /** Pages admitted to the frontier in it. */
  pages: number;
  /** URLs not fetched because of a limit, by reason; empty: crawled completely. */
  cut: Partial<Record<CutReason, number>>;
  /** One example URL that was cut, for the audit's message. */
  example: string | null;
}

/** The crawl's running totals, saved with every flush (what the progress and the audit show). */
export interface CrawlProgress {
  fetched: number;
  /** Admitted, not fetched yet. */
  queued: number;
  /** Answers by status class and error: '2xx', '3xx', '4xx', '5xx', 'error', 'blocked'. */
  byStatus: Record<string, number>;
  requests: number;
  sections: SectionCoverage[];
  /** Set when the crawl stopped early as a whole (the safeguard, a host given up, the page limit). */
  stopped: { reason: CutReason; message: string } | null;
  /** What a resumed crawl needs to keep its scope: hosts the start URL's redirects brought in, and the
   * key its redirect chain has reached (null once it ended in a page, or in list mode). */
  scope?: { joined: string[]; chain: string | null };
}

/** One flush, written in one transaction: pages fetched, URLs they admitted, inlinks they add, totals. */
export interface CrawlFlush {
  pages: CrawledPage[];
  admitted: Omit<FrontierItem, 'done'>[];
  /** Key → pages (of this flush) linking to it, each page counted once. */
  inlinks: Map<string, number>;
  progress: CrawlProgress;
}

export interface CrawlStore {
  /** Everything admitted so far (empty on a fresh crawl), and the totals of the last flush. */
  load(): Promise<{ items: FrontierItem[]; progress: CrawlProgress | null }>;
  save(flush: CrawlFlush): Promise<void>;
}
