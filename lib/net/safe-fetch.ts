// The one way to fetch a user-supplied URL: SSRF-guarded on every hop, redirects followed by hand,
// 429/5xx and transient failures retried with backoff, and the body streamed under size and time caps.
import { displayUrl } from './address-guard';
import { abortedError } from './errors';
import { type ResolvedOptions, resolveOptions } from './options';
import { isRetryableStatus, isTransientError, parseRetryAfter, retryDelay, sleep } from './retry-policy';
import { type RawResponse, sendRequest } from './send-request';
import { NetError, type SafeFetchOptions, type SafeResponse } from './types';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// Headers that carry the caller's identity at one site must not travel to another.
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Fetches `input`. HTTP statuses never throw: after redirects and bounded retries the final response
 * is returned, whatever its status. Everything else (bad or blocked URL, network failure after retries,
 * redirect trouble) throws a NetError whose message can be shown to the user.
 */
export async function safeFetch(input: string, options?: SafeFetchOptions): Promise<SafeResponse> {
  const opts = resolveOptions(options);
  let url = parseUrl(input);
  const start = displayUrl(url);
  let headers = requestHeaders(opts);
  const redirects: SafeResponse['redirects'] = [];
  const visited = new Set([displayUrl(url)]);

  while (true) {
    const { response, attempts } = await fetchWithRetries(url, headers, opts);
    const location = headerValue(response.headers.location);
    // A POST's redirect is its answer: its body must not be sent on to wherever a Location points.
    const follows = opts.followRedirects && opts.method !== 'POST';
    if (!follows || !REDIRECT_STATUSES.has(response.status) || location === undefined) {
      return {
        url: displayUrl(url),
        status: response.status,
        headers: response.headers,
        redirects,
        attempts,
        body: response.body,
        compressedBytes: response.compressedBytes,
      };
    }
    response.body.destroy();
    const shown = displayUrl(url);
    redirects.push({ url: shown, status: response.status });
    const next = parseUrl(location, url);
    if (visited.has(displayUrl(next))) {
      throw new NetError('redirect_loop', shown, `${shown} redirects in a loop`);
    }
    if (redirects.length > opts.maxRedirects) {
      throw new NetError(
        'too_many_redirects',
        shown,
        `${start} redirected more than ${opts.maxRedirects} times`,
      );
    }
    visited.add(displayUrl(next));
    if (next.origin !== url.origin) headers = withoutCredentials(headers);
    // The next hop is vetted again (scheme, credentials, port, every address) inside sendRequest.
    url = next;
  }
}

async function fetchWithRetries(
  url: URL,
  headers: Record<string, string>,
  opts: ResolvedOptions,
): Promise<{ response: RawResponse; attempts: number }> {
  const shown = displayUrl(url);
  const settings = { ...opts, headers };
  for (let attempt = 1; ; attempt++) {
    const canRetry = attempt <= opts.retries;
    let retryAfterMs: number | undefined;
    try {
      const response = await sendRequest(url, settings);
      if (!canRetry || !isRetryableStatus(response.status)) return { response, attempts: attempt };
      retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      // Nothing reads a response we are about to retry; closing it frees the socket now.
      response.body.destroy();
    } catch (err) {
      if (!(err instanceof NetError)) throw err;
      if (!canRetry || !isTransientError(err)) throw err.withAttempts(attempt);
    }
    const { sleep: wait = sleep, random } = opts.testHooks;
    const ms = retryDelay(
      attempt,
      { baseMs: opts.retryBaseMs, capMs: opts.maxRetryAfterMs, retryAfterMs },
      random,
    );
    await wait(ms, opts.signal, () => abortedError(shown).withAttempts(attempt));
  }
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    // Only a bounded slice of arbitrary input goes into a message shown to users.
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    const what = base ? `The redirect target "${shown}" from ${displayUrl(base)}` : `"${shown}"`;
    throw new NetError('bad_url', base ? displayUrl(base) : shown, `${what} is not a valid URL`);
  }
}

function requestHeaders(opts: ResolvedOptions): Record<string, string> {
  const { host: _ignoredHost, ...extra } = opts.headers;
  return {
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br',
    ...extra,
    // The Host header always follows the URL, and the bot always identifies itself the same way.
    'user-agent': opts.userAgent,
  };
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name)));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
