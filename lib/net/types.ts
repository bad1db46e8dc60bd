// Public contract of the safe HTTP client: options, the streamed response and the one error type.
// Every user-supplied URL is fetched through this contract (see ARCHITECTURE.md, "Security model").

export interface SafeFetchOptions {
  /** Deadline for one request, from DNS lookup to the last body byte (default 30_000). */
  timeoutMs?: number;
  /** Longest silence tolerated while connecting or waiting for data (default 10_000). */
  idleTimeoutMs?: number;
  /** Cap on body bytes delivered after Content-Encoding decoding; exceeding it errors the body with 'too_large'. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /**
   * Default true. False returns a redirect as the final response (its body unread), so a caller that
   * records every hop (the live spot-check) follows them itself, each hop one guarded safeFetch.
   */
  followRedirects?: boolean;
  /** Extra attempts for 429/5xx and transient network errors (default 3, so up to 4 attempts). */
  retries?: number;
  /** Exponential backoff base with full jitter (default 500). */
  retryBaseMs?: number;
  /** Upper bound on any wait between attempts, including one asked for by Retry-After (default 60_000). */
  maxRetryAfterMs?: number;
  /** Default: env USER_AGENT, else 'SitemapAuditBot/0.1 (+https://github.com/sitemap-audit)'. */
  userAgent?: string;
  /**
   * Lifts the private-address rule (intranet sites, tests); metadata, broadcast, multicast and
   * unspecified addresses stay refused. Default: env ALLOW_PRIVATE_NETWORK === 'true'.
   */
  allowPrivateNetwork?: boolean;
  /**
   * Ports a URL may use; always applies when given. Default: 80, 443 plus env ALLOWED_PORTS (comma list)
   * when that is set; else any port if allowPrivateNetwork, else 80 and 443 (options.ts portRule).
   */
  allowedPorts?: number[];
  signal?: AbortSignal;
  /** Extra request headers (e.g. If-None-Match). Credentials headers are dropped on cross-origin redirects. */
  headers?: Record<string, string>;
  /** POST is for configured endpoints (the Search Console API), never a user's URL; default GET. */
  method?: 'GET' | 'HEAD' | 'POST';
  /** The request body of a POST, sent again on every retry; a redirect is never followed with it. */
  body?: string;
  /** @internal Test seams only; production code never sets this. */
  testHooks?: NetTestHooks;
}

export interface SafeResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Each redirect answered on the way: the URL that redirected and its status. */
  redirects: { url: string; status: number }[];
  /** Attempts spent on the final URL (1 when the first try answered). */
  attempts: number;
  /** Streamed body, Content-Encoding (gzip, deflate, br) decoded; other bytes (e.g. a served .gz file) raw. */
  body: AsyncIterable<Uint8Array> & { destroy(): void };
  /** Bytes received on the wire so far (before Content-Encoding decoding). */
  compressedBytes(): number;
}

export type NetErrorCode =
  | 'bad_url'
  | 'bad_scheme'
  | 'credentials_in_url'
  | 'port_not_allowed'
  | 'blocked_address'
  | 'dns_failed'
  | 'connect_failed'
  | 'timeout'
  | 'too_many_redirects'
  | 'redirect_loop'
  | 'too_large'
  | 'http_status'
  | 'aborted'
  | 'tls_error'
  | 'decode_failed';

export interface NetErrorDetails {
  status?: number;
  attempts?: number;
  cause?: unknown;
}

/** Failure of a fetch; `message` is safe to show a user and names the URL (never its credentials). */
export class NetError extends Error {
  readonly code: NetErrorCode;
  readonly url: string;
  readonly status?: number;
  readonly attempts?: number;

  constructor(code: NetErrorCode, url: string, message: string, details: NetErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'NetError';
    this.code = code;
    this.url = url;
    if (details.status !== undefined) this.status = details.status;
    if (details.attempts !== undefined) this.attempts = details.attempts;
  }

  /** The same failure, reported after `attempts` tries. */
  withAttempts(attempts: number): NetError {
    const suffix = attempts > 1 ? ` (${attempts} attempts)` : '';
    return new NetError(this.code, this.url, `${this.message}${suffix}`, {
      status: this.status,
      attempts,
      cause: this.cause,
    });
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Seams that let tests run against 127.0.0.1 only while exercising the public-address path.
 * `resolve` replaces dns.lookup (its answers are still checked); `dial` sees each checked address
 * right before the socket connects and may swap in a loopback stand-in. `sleep` and `random` replace
 * the wait between attempts and its jitter, so that a test sees the backoff without waiting it out.
 */
export interface NetTestHooks {
  resolve?: Resolver;
  dial?: (checked: ResolvedAddress) => ResolvedAddress;
  sleep?: (ms: number, signal: AbortSignal | undefined, onAbort: () => Error) => Promise<void>;
  random?: () => number;
}
