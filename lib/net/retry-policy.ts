// When to try again and how long to wait: pure rules plus an abortable sleep.
import { NetError } from './types';

/** 429 and 5xx may clear up; every other status is the server's final word. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

// Socket-level failures that usually mean "try again": resets, refusals while a server restarts,
// temporary DNS failures. Anything else (TLS, bad responses, blocked addresses) will not change.
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

export function isTransientError(err: unknown): boolean {
  if (!(err instanceof NetError)) return false;
  if (err.code === 'timeout') return true;
  if (err.code !== 'connect_failed' && err.code !== 'dns_failed') return false;
  const cause = err.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' && TRANSIENT_CODES.has(cause.code);
}

/**
 * Milliseconds a Retry-After header asks for (delta-seconds or HTTP-date), or undefined when absent
 * or unreadable, in which case normal backoff applies.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // All three HTTP-date forms start with a day name; Date.parse alone would read "-5" as a year.
  if (!/^[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Wait before attempt `attempt + 1` (attempt counts from 1). Full jitter spreads many workers
 * retrying the same host; a server's Retry-After wins over it but never beyond `capMs`.
 */
export function retryDelay(
  attempt: number,
  opts: { baseMs: number; capMs: number; retryAfterMs?: number | undefined },
  random: () => number = Math.random,
): number {
  if (opts.retryAfterMs !== undefined) return Math.min(opts.retryAfterMs, opts.capMs);
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Resolves after `ms`, or rejects with `onAbort()` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, onAbort: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(onAbort());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(onAbort());
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
