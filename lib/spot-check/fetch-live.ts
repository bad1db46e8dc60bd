// One live spot-check: a GET of a URL with every redirect followed by hand (each hop one SSRF-guarded
// safeFetch, so the guard sees every hop and the chain keeps each raw Location), 429/503 retried after
// Retry-After, and the final page's indexing signals read from its headers and its first 2 MiB.
import { parseRetryAfter, sleep } from '@/lib/net/retry-policy';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError, type NetErrorCode, type NetTestHooks, type SafeResponse } from '@/lib/net/types';
import { canonicalFromLinkHeader, headerSaysNoindex } from './header-signals';
import { createHtmlSignalReader, type HtmlSignals } from './html-signals';
import type { Hop, LiveError, LiveErrorCode, LiveResult } from './types';

/** Lets a scheduler hold every request of a check to its limits (per-host slots and delays, robots.txt). */
export interface RequestGate {
  /** Resolves when a request to `url` may start, with the function that ends it, or with a refusal. */
  enter(url: URL, signal: AbortSignal | undefined): Promise<(() => void) | LiveError>;
  /** The host of `url` answered 429/503 and asked for `ms` of quiet. */
  backOff(url: URL, ms: number): void;
  /** Every answer's status (and the Retry-After asked for, if any): a refusal when the scheduler gives
   * the host up, and the check then ends with it instead of waiting. */
  answered?(url: URL, status: number, retryAfterMs: number | undefined): LiveError | null;
}

export interface LiveCheckOptions {
  /** Time on the wire for the whole chain (waits for a slot or a Retry-After excluded). Default 15_000. */
  timeoutMs?: number;
  /** Default: env USER_AGENT, else the product's (lib/net/options.ts). */
  userAgent?: string;
  /** Redirects followed before `too_many_redirects` (default 10). */
  maxRedirects?: number;
  /** Body bytes read from the final page (default 2 MiB); beyond it `truncated` is set. */
  maxBodyBytes?: number;
  /** Extra attempts of one URL answering 429/503 (default 2). */
  retries?: number;
  /** Cap on one wait asked for by Retry-After (default 30_000). */
  maxRetryAfterMs?: number;
  /** Wait after a 429/503 without a readable Retry-After (default 1_000). */
  retryFallbackMs?: number;
  allowPrivateNetwork?: boolean;
  allowedPorts?: number[];
  signal?: AbortSignal;
  gate?: RequestGate;
  /** @internal Test seams of lib/net. */
  testHooks?: NetTestHooks;
}

const DEFAULT_BODY_CAP = 2 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RATE_LIMITED = new Set([429, 503]);

const NET_CODES: Record<NetErrorCode, LiveErrorCode> = {
  bad_url: 'bad_url',
  bad_scheme: 'bad_url',
  credentials_in_url: 'bad_url',
  port_not_allowed: 'blocked_address',
  blocked_address: 'blocked_address',
  dns_failed: 'network',
  connect_failed: 'network',
  tls_error: 'network',
  decode_failed: 'network',
  too_large: 'network',
  http_status: 'network',
  timeout: 'timeout',
  too_many_redirects: 'too_many_redirects',
  redirect_loop: 'redirect_loop',
  aborted: 'cancelled',
};

/** Never throws for anything the site or the network does: failures come back as `error`. */
export async function checkLive(url: string, options: LiveCheckOptions = {}): Promise<LiveResult> {
  const opts = {
    timeoutMs: 15_000,
    maxRedirects: 10,
    maxBodyBytes: DEFAULT_BODY_CAP,
    retries: 2,
    maxRetryAfterMs: 30_000,
    retryFallbackMs: 1_000,
    ...options,
  };
  const checkedAt = new Date().toISOString();
  const chain: Hop[] = [];
  let startedAt: number | null = null;
  let wireMs = 0;
  let retries = 0;

  const finish = (fields: Partial<LiveResult> & { finalUrl: string }): LiveResult => ({
    url,
    chain,
    finalStatus: null,
    contentType: null,
    noindex: false,
    noindexSources: [],
    canonical: null,
    canonicalSource: null,
    title: null,
    textHash: null,
    fingerprint: null,
    ms: startedAt === null ? 0 : Date.now() - startedAt,
    truncated: false,
    retries,
    checkedAt,
    error: null,
    ...fields,
  });
  const failed = (
    finalUrl: string,
    code: LiveErrorCode,
    message: string,
    finalStatus: number | null = null,
  ) => finish({ finalUrl, finalStatus, error: { code, message } });

  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return failed(url, 'bad_url', `"${url.slice(0, 200)}" is not a valid URL`);
  }
  const visited = new Set([withoutHash(current)]);

  while (true) {
    let response: SafeResponse | undefined;
    let release: () => void = () => {};
    for (let attempt = 0; response === undefined; attempt++) {
      const entered = opts.gate ? await opts.gate.enter(current, opts.signal) : () => {};
      if (typeof entered !== 'function') return failed(current.href, entered.code, entered.message);
      release = entered;
      startedAt ??= Date.now();
      const remaining = opts.timeoutMs - wireMs;
      if (remaining <= 0) {
        release();
        return failed(current.href, 'timeout', `The check of ${url} took longer than ${opts.timeoutMs} ms`);
      }
      const sentAt = Date.now();
      let res: SafeResponse;
      try {
        res = await safeFetch(current.href, {
          timeoutMs: remaining,
          idleTimeoutMs: remaining,
          followRedirects: false,
          retries: 0,
          method: 'GET',
          headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
          userAgent: opts.userAgent,
          allowPrivateNetwork: opts.allowPrivateNetwork,
          allowedPorts: opts.allowedPorts,
          signal: opts.signal,
          testHooks: opts.testHooks,
        });
      } catch (err) {
        release();
        if (!(err instanceof NetError)) throw err;
        return failed(current.href, NET_CODES[err.code], err.message);
      } finally {
        wireMs += Date.now() - sentAt;
      }
      const retryAfterMs = RATE_LIMITED.has(res.status)
        ? parseRetryAfter(res.headers['retry-after'])
        : undefined;
      const givenUp = opts.gate?.answered?.(current, res.status, retryAfterMs) ?? null;
      if (givenUp) {
        res.body.destroy();
        release();
        chain.push({ url: current.href, status: res.status, location: headerText(res.headers.location) });
        return failed(current.href, givenUp.code, givenUp.message, res.status);
      }
      if (!RATE_LIMITED.has(res.status) || attempt >= opts.retries) {
        response = res;
        break;
      }
      res.body.destroy();
      release();
      retries++;
      const asked = retryAfterMs ?? opts.retryFallbackMs;
      const wait = Math.min(asked, opts.maxRetryAfterMs);
      if (opts.gate) opts.gate.backOff(current, wait);
      else {
        try {
          await sleep(wait, opts.signal, () => new Error('cancelled'));
        } catch {
          return failed(current.href, 'cancelled', `The check of ${url} was cancelled`);
        }
      }
    }

    const location = headerText(response.headers.location);
    if (REDIRECT_STATUSES.has(response.status) && location !== null) {
      response.body.destroy();
      release();
      chain.push({ url: current.href, status: response.status, location });
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        const shown = location.slice(0, 200);
        return failed(
          current.href,
          'bad_url',
          `${current.href} redirects to "${shown}", not a valid URL`,
          response.status,
        );
      }
      if (visited.has(withoutHash(next))) {
        return failed(current.href, 'redirect_loop', `${url} redirects in a loop`, response.status);
      }
      if (chain.length > opts.maxRedirects) {
        const message = `${url} redirected more than ${opts.maxRedirects} times`;
        return failed(current.href, 'too_many_redirects', message, response.status);
      }
      visited.add(withoutHash(next));
      current = next;
      continue;
    }

    chain.push({ url: current.href, status: response.status, location });
    try {
      const final = await readFinal(current.href, response, opts.maxBodyBytes);
      // Still 429/503 after the bounded retries: the site's answer is kept, but the check did not get through.
      const error: LiveError | null = RATE_LIMITED.has(response.status)
        ? {
            code: 'rate_limited',
            message: `${current.href} still answered ${response.status} after ${retries} retries`,
          }
        : null;
      return finish({ finalUrl: current.href, ...final, error });
    } catch (err) {
      if (!(err instanceof NetError)) throw err;
      return failed(current.href, NET_CODES[err.code], err.message, response.status);
    } finally {
      release();
    }
  }
}

/** What the final answer says: status, type, header signals and, for HTML, the page's own. */
async function readFinal(pageUrl: string, res: SafeResponse, cap: number): Promise<Partial<LiveResult>> {
  const contentType = headerText(res.headers['content-type']);
  const headerNoindex = headerSaysNoindex(res.headers['x-robots-tag']);
  const headerCanonical = canonicalFromLinkHeader(res.headers.link, pageUrl);
  let page: HtmlSignals | null = null;
  let truncated = false;
  if (isHtml(contentType)) ({ page, truncated } = await readHtml(pageUrl, res, contentType, cap));
  else res.body.destroy();

  const noindexSources = [...(page?.noindexSources ?? []), ...(headerNoindex ? ['header'] : [])];
  const canonicalSource = page?.canonical ? 'link' : headerCanonical ? 'header' : null;
  return {
    finalStatus: res.status,
    contentType,
    noindex: noindexSources.length > 0,
    noindexSources,
    // The page's own tag wins over the header when both are present.
    canonical: page?.canonical ?? headerCanonical,
    canonicalSource,
    title: page?.title ?? null,
    textHash: page?.textHash ?? null,
    fingerprint: page?.fingerprint ?? null,
    truncated,
  };
}

async function readHtml(
  pageUrl: string,
  res: SafeResponse,
  contentType: string | null,
  cap: number,
): Promise<{ page: HtmlSignals; truncated: boolean }> {
  const reader = createHtmlSignalReader(pageUrl);
  const decoder = decoderFor(contentType);
  const chunks = res.body[Symbol.asyncIterator]();
  let read = 0;
  let truncated = false;
  while (true) {
    const step = await chunks.next();
    if (step.done) break;
    const room = cap - read;
    if (step.value.length > room) {
      reader.write(decoder.decode(step.value.subarray(0, room), { stream: true }));
      truncated = true;
      break;
    }
    read += step.value.length;
    reader.write(decoder.decode(step.value, { stream: true }));
    // A body exactly as long as the cap is whole; one byte more means signals past the cut are unseen.
    if (read === cap) {
      truncated = !(await chunks.next()).done;
      break;
    }
  }
  res.body.destroy();
  reader.write(decoder.decode());
  return { page: reader.end(), truncated };
}

function isHtml(contentType: string | null): boolean {
  // No Content-Type at all: read it as HTML, as a browser sniffing a page would.
  if (contentType === null) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  return type === 'text/html' || type === 'application/xhtml+xml';
}

function decoderFor(contentType: string | null): TextDecoder {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

function headerText(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text ?? null;
}

function withoutHash(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}
