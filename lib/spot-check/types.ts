// The shapes of a live spot-check: what one GET of a candidate's URL found on the live site,
// the per-host soft-404 probe, and the verdict that compares it with the finding's reason. Shared by the
// fetcher (fetch-live.ts, politeness.ts, soft404.ts), the verdict and statistics (verdict.ts, stats.ts,
// sample.ts) and, later, the spot-check run kind, its storage and API.

/** One response of the redirect chain, in order; the last one is the final answer. */
export interface Hop {
  url: string;
  status: number;
  /** The Location header as sent (null when absent), before resolving against `url`. */
  location: string | null;
}

export type LiveErrorCode =
  | 'timeout'
  | 'network'
  | 'blocked_address' // refused by the SSRF guard (private, metadata, port)
  | 'robots_disallowed' // the host's robots.txt disallows our User-Agent, and the run did not override it
  | 'too_many_redirects'
  | 'redirect_loop'
  | 'bad_url'
  | 'rate_limited' // 429/503 still answered after the bounded Retry-After retries
  | 'host_refused' // the run gave the host up: 429/503 again and again, or a Retry-After it cannot afford
  | 'budget_spent' // the run's time or request budget ran out before this URL was checked
  | 'cancelled'; // the run was cancelled while this check was in flight

export interface LiveError {
  code: LiveErrorCode;
  message: string;
}

/** What the live site answers for one URL now (a GET; redirects followed by hand, every hop kept). */
export interface LiveResult {
  url: string;
  chain: Hop[];
  /** The URL of the last hop (after redirects). */
  finalUrl: string;
  /** Null when no response arrived (error set). */
  finalStatus: number | null;
  contentType: string | null;
  /** noindex from <meta name="robots|googlebot">, or X-Robots-Tag (for all agents or googlebot). */
  noindex: boolean;
  /** Where a noindex came from: 'meta:robots', 'meta:googlebot', 'header'. Empty when indexable. */
  noindexSources: string[];
  /** The canonical of the final page, absolute (from <link rel="canonical"> or the Link header), or null. */
  canonical: string | null;
  canonicalSource: 'link' | 'header' | null;
  /** <title> of an HTML final page, whitespace collapsed, at most 500 characters. */
  title: string | null;
  /** sha256 (hex) of the page's visible text, whitespace collapsed (no script/style/noscript/template). */
  textHash: string | null;
  /** Visible-text shingle sketch for the soft-404 comparison (text-similarity.ts); opaque to callers. */
  fingerprint?: string | null;
  /** Whole check: first byte of the first request to the end of the last body read. */
  ms: number;
  /** True when the body was cut at the cap (2 MiB): signals after the cut are unseen. */
  truncated: boolean;
  /** Attempts that answered 429/503 and were retried after Retry-After. */
  retries: number;
  checkedAt: string;
  error: LiveError | null;
}

/** A random path that cannot exist on a host, fetched once per run: what that host answers for "nothing". */
export interface HostProbe {
  origin: string;
  url: string;
  /** Where the probe ended after redirects (e.g. a site sending every unknown path to its home page). */
  finalUrl?: string | null;
  status: number | null;
  title: string | null;
  textHash: string | null;
  /** Visible-text shingles (or similar) for "near-identical" comparison; opaque to callers. */
  fingerprint: string | null;
}

export type Verdict =
  | 'confirmed' // the live answer agrees with the reason
  | 'contradicted' // the reason no longer holds (e.g. flagged http_404, now 200, indexable, self-canonical)
  | 'changed' // a different problem now (`liveReason` says which)
  | 'orphan_live' // unreached_by_crawl (or held) but live 200, indexable, self-canonical: link it, do not prune
  | 'dead' // unreached_by_crawl (or held) and now 404/410 (directly or after redirects)
  | 'recovered' // held server_error that answers 200 now
  | 'error'; // could not check (see error)
