// The URL Inspection API without Google's SDK: an OAuth 2.0 service-account token (an RS256 JWT signed
// with node:crypto, exchanged at GOOGLE_OAUTH_TOKEN_URL) and urlInspection/index:inspect calls, all through
// lib/net's safe client, at most GSC_INSPECTION_RATE calls a second. Pure of the database.
import { createSign } from 'node:crypto';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError, type SafeFetchOptions } from '@/lib/net/types';
import type { ServiceAccountKey } from './credentials';
import type { IndexStatus } from './inspection-schema';

export const INSPECTION_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';
const DEFAULT_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const DEFAULT_API_BASE = 'https://searchconsole.googleapis.com';
const ANSWER_BYTES = 1024 * 1024;

export type InspectionAnswer =
  | { ok: true; status: IndexStatus }
  | { ok: false; code: string; message: string };

/** Which of Google's quotas an answer says is spent: the property's day (2,000) or its minute (600). */
export type QuotaLimit = 'day' | 'minute';

/**
 * Google's quota answer (HTTP 429, status RESOURCE_EXHAUSTED; older APIs: a 403 with reason
 * dailyLimitExceeded, quotaExceeded or rateLimitExceeded): every further call would be refused and may
 * count against the project, so the run stops calling at once and waits for the quota to reset.
 */
export class GscQuotaError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly googleMessage: string,
    readonly limit: QuotaLimit,
  ) {
    super(`Search Console answered ${status} ${code}: ${googleMessage}`);
    this.name = 'GscQuotaError';
  }
}

const QUOTA_REASONS = new Set([
  'dailyLimitExceeded',
  'quotaExceeded',
  'rateLimitExceeded',
  'userRateLimitExceeded',
]);

/** The quota an error body names, or null when it is no quota answer. A per-minute limit says so in its
 * message or details ("… per minute …"); anything else is taken as the day's, the safe reading. */
function quotaAnswer(
  status: number,
  body: unknown,
): { code: string; message: string; limit: QuotaLimit } | null {
  const error = ((body ?? {}) as { error?: Record<string, unknown> }).error ?? {};
  const code = text(error.status);
  const reasons = Array.isArray(error.errors)
    ? error.errors
        .map((e) => text((e as { reason?: unknown })?.reason))
        .filter((r): r is string => r !== null)
    : [];
  const isQuota =
    (status === 429 && code === 'RESOURCE_EXHAUSTED') ||
    ((status === 403 || status === 429) && reasons.some((r) => QUOTA_REASONS.has(r)));
  if (!isQuota) return null;
  const message = text(error.message) ?? `HTTP ${status}`;
  const said = `${message} ${JSON.stringify(error.details ?? '')} ${reasons.join(' ')}`;
  const limit: QuotaLimit =
    /minute|rateLimitExceeded/i.test(said) && !/per day|daily/i.test(said) ? 'minute' : 'day';
  return { code: code ?? reasons[0] ?? 'RESOURCE_EXHAUSTED', message, limit };
}

/** Extra attempts for a 5xx or a 429 that is no quota answer (a proxy's): safeFetch does not retry the
 * inspect call itself, since it cannot tell a quota answer, which must not be repeated. */
const INSPECT_RETRIES = 3;

/** The key cannot be used for the property any more: the whole run stops (no URL would succeed). */
export class GscAccessError extends Error {
  constructor(property: string, googleMessage: string) {
    super(`the key was revoked or has no access to ${property}: ${googleMessage}`);
    this.name = 'GscAccessError';
  }
}

export interface InspectionClientOptions {
  key: ServiceAccountKey;
  property: string;
  env?: Record<string, string | undefined>;
  /** Milliseconds since the epoch; tests move it to expire a token without waiting. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** Passed on to safeFetch (tests shorten the backoff). */
  net?: Pick<SafeFetchOptions, 'retries' | 'retryBaseMs' | 'testHooks'>;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export class InspectionClient {
  private token: { value: string; expiresAt: number } | null = null;
  private nextCallAt = 0;
  private readonly tokenUrl: string;
  private readonly apiBase: string;
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: InspectionClientOptions) {
    const env = options.env ?? process.env;
    // Configuration only, never the key's token_uri nor anything a user sends (docs/security.md).
    this.tokenUrl = env.GOOGLE_OAUTH_TOKEN_URL?.trim() || DEFAULT_TOKEN_URL;
    this.apiBase = (env.GSC_API_BASE_URL?.trim() || DEFAULT_API_BASE).replace(/\/+$/, '');
    // Google allows 600 a minute per property; 5 a second leaves room for another client of the property.
    const rate = Number(env.GSC_INSPECTION_RATE?.trim() || 5);
    if (!Number.isFinite(rate) || rate <= 0) {
      throw new Error(`GSC_INSPECTION_RATE must be a positive number, got "${env.GSC_INSPECTION_RATE}"`);
    }
    this.minIntervalMs = 1000 / rate;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The signed assertion of the JWT-bearer grant (RFC 7523), valid for an hour. */
  assertion(): string {
    const iat = Math.floor(this.now() / 1000);
    const header = {
      alg: 'RS256',
      typ: 'JWT',
      ...(this.options.key.privateKeyId ? { kid: this.options.key.privateKeyId } : {}),
    };
    const claims = {
      iss: this.options.key.clientEmail,
      scope: INSPECTION_SCOPE,
      aud: this.tokenUrl,
      iat,
      exp: iat + 3600,
    };
    const unsigned = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(this.options.key.privateKey);
    return `${unsigned}.${b64url(signature)}`;
  }

  /** A bearer token, fetched again 60 s before it expires. */
  async accessToken(): Promise<string> {
    if (this.token && this.now() < this.token.expiresAt - 60_000) return this.token.value;
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: this.assertion(),
    }).toString();
    const { status, json } = await this.post(this.tokenUrl, body, 'application/x-www-form-urlencoded');
    const answer = (json ?? {}) as Record<string, unknown>;
    const value = text(answer.access_token);
    if (status !== 200 || !value) {
      const why = text(answer.error_description) ?? text(answer.error) ?? `HTTP ${status}`;
      if (status === 400 || status === 401 || status === 403) {
        throw new GscAccessError(this.options.property, why);
      }
      throw new Error(`the token endpoint answered ${status}: ${why}`);
    }
    const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
    this.token = { value, expiresAt: this.now() + seconds * 1000 };
    return value;
  }

  /** Inspects one URL. A refusal for this URL (a 400, a 429 or 5xx left after the retries) is its answer;
   * a revoked or unauthorised key throws GscAccessError; Google's quota answer throws GscQuotaError after
   * that one call, never repeated. */
  async inspect(url: string): Promise<InspectionAnswer> {
    const token = await this.accessToken();
    const body = JSON.stringify({
      inspectionUrl: url,
      siteUrl: this.options.property,
      languageCode: 'en-US',
    });
    let answer: { status: number; json: unknown };
    for (let attempt = 0; ; attempt++) {
      await this.throttle();
      answer = await this.post(
        `${this.apiBase}/v1/urlInspection/index:inspect`,
        body,
        'application/json',
        token,
        0,
      );
      const quota = quotaAnswer(answer.status, answer.json);
      if (quota) throw new GscQuotaError(answer.status, quota.code, quota.message, quota.limit);
      const again = answer.status === 429 || answer.status >= 500;
      if (!again || attempt >= INSPECT_RETRIES) break;
      const base = this.options.net?.retryBaseMs ?? 500;
      await this.sleep(Math.floor(Math.random() * base * 2 ** attempt));
    }
    const { status, json } = answer;
    const error = ((json ?? {}) as { error?: { message?: unknown; status?: unknown } }).error;
    const message = text(error?.message) ?? `HTTP ${status}`;
    if (status === 401 || status === 403) {
      this.token = null;
      throw new GscAccessError(this.options.property, message);
    }
    if (status !== 200) return { ok: false, code: text(error?.status) ?? `http_${status}`, message };
    const result = (json as { inspectionResult?: { indexStatusResult?: Record<string, unknown> } })
      .inspectionResult?.indexStatusResult;
    if (!result) return { ok: false, code: 'no_result', message: 'the answer held no indexStatusResult' };
    return { ok: true, status: indexStatusOf(result) };
  }

  private async throttle(): Promise<void> {
    const wait = this.nextCallAt - this.now();
    if (wait > 0) await this.sleep(wait);
    this.nextCallAt = Math.max(this.now(), this.nextCallAt) + this.minIntervalMs;
  }

  private async post(url: string, body: string, type: string, token?: string, retries?: number) {
    try {
      const res = await safeFetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': type,
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        maxBytes: ANSWER_BYTES,
        retries: 3,
        ...this.options.net,
        ...(retries === undefined ? {} : { retries }),
        signal: this.options.signal,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of res.body) chunks.push(Buffer.from(chunk));
      const raw = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(raw);
      } catch {
        // Not JSON (a proxy's HTML page): the status speaks for itself.
      }
      return { status: res.status, json };
    } catch (error) {
      if (error instanceof NetError) throw new Error(`Search Console could not be reached: ${error.message}`);
      throw error;
    }
  }
}

function indexStatusOf(r: Record<string, unknown>): IndexStatus {
  return {
    verdict: text(r.verdict),
    coverageState: text(r.coverageState),
    indexingState: text(r.indexingState),
    pageFetchState: text(r.pageFetchState),
    robotsTxtState: text(r.robotsTxtState),
    googleCanonical: text(r.googleCanonical),
    userCanonical: text(r.userCanonical),
    lastCrawlTime: text(r.lastCrawlTime),
    sitemaps: Array.isArray(r.sitemap) ? r.sitemap.filter((s): s is string => typeof s === 'string') : [],
  };
}
