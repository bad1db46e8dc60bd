// Fills SafeFetchOptions with defaults, reading the environment at call time so deployments
// (and tests) can change the private-network guard, ports and User-Agent without code.
import type { NetTestHooks, SafeFetchOptions } from './types';

export const DEFAULT_USER_AGENT = 'SitemapAuditBot/0.1 (+https://github.com/sitemap-audit)';

// The sitemaps.org limit for one uncompressed sitemap file (50 MiB).
export const DEFAULT_MAX_BYTES = 52_428_800;

export interface ResolvedOptions {
  timeoutMs: number;
  idleTimeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  followRedirects: boolean;
  retries: number;
  retryBaseMs: number;
  maxRetryAfterMs: number;
  userAgent: string;
  allowPrivateNetwork: boolean;
  /** Ports a URL may use; null: any port (private networks allowed and no list configured). */
  allowedPorts: readonly number[] | null;
  signal: AbortSignal | undefined;
  headers: Record<string, string>;
  method: 'GET' | 'HEAD' | 'POST';
  body: string | undefined;
  testHooks: NetTestHooks;
}

export function resolveOptions(
  options: SafeFetchOptions = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedOptions {
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? 30_000);
  const allowPrivateNetwork = options.allowPrivateNetwork ?? env.ALLOW_PRIVATE_NETWORK === 'true';
  return {
    timeoutMs,
    idleTimeoutMs: positive('idleTimeoutMs', options.idleTimeoutMs ?? 10_000),
    maxBytes: positive('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES),
    maxRedirects: count('maxRedirects', options.maxRedirects ?? 5),
    followRedirects: options.followRedirects ?? true,
    retries: count('retries', options.retries ?? 3),
    retryBaseMs: nonNegative('retryBaseMs', options.retryBaseMs ?? 500),
    maxRetryAfterMs: nonNegative('maxRetryAfterMs', options.maxRetryAfterMs ?? 60_000),
    userAgent: options.userAgent ?? (env.USER_AGENT?.trim() || DEFAULT_USER_AGENT),
    allowPrivateNetwork,
    allowedPorts: portRule(options.allowedPorts, env.ALLOWED_PORTS, allowPrivateNetwork),
    signal: options.signal,
    headers: lowerCaseKeys(options.headers ?? {}),
    method: options.method ?? 'GET',
    body: options.body,
    testHooks: options.testHooks ?? {},
  };
}

/**
 * The one place that decides which ports a fetch may use. ALLOW_PRIVATE_NETWORK lifts the address rule
 * only: a configured list (the option, or ALLOWED_PORTS with 80 and 443) applies whatever it says. With
 * private networks allowed and no list configured, any port stays open (intranet sites on 8080, tests on
 * random loopback ports); otherwise 80 and 443.
 */
export function portRule(
  explicit: readonly number[] | undefined,
  envList: string | undefined,
  allowPrivateNetwork: boolean,
): readonly number[] | null {
  if (explicit !== undefined) return explicit;
  const configured = parsePortList(envList);
  if (configured.length > 0) return [80, 443, ...configured.filter((port) => port !== 80 && port !== 443)];
  return allowPrivateNetwork ? null : [80, 443];
}

/** Parses ALLOWED_PORTS. A typo there must not silently open or close ports, so it throws. */
export function parsePortList(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((part) => {
    const text = part.trim();
    const port = Number(text);
    if (!/^\d+$/.test(text) || port < 1 || port > 65_535) {
      throw new Error(`ALLOWED_PORTS must be a comma-separated list of port numbers; got "${value}"`);
    }
    return port;
  });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

// Options come from code, not users, so a bad value is a programming error, not a NetError.
function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number`);
  return value;
}

function count(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
  return value;
}
