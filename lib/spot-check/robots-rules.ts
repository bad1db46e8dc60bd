// A host's robots.txt for the live spot-check: fetched through the safe client, read with robots-parser
// (wildcards, longest match, Allow over Disallow on ties) for the product's User-Agent token.
import robotsParser from 'robots-parser';
import { DNS_ADVICE } from '@/lib/net/address-guard';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError, type NetTestHooks } from '@/lib/net/types';
import type { LiveError } from './types';

export interface RobotsRules {
  /** Why `url` may not be fetched, or null when it may. */
  refusal(url: URL): LiveError | null;
  /** The Crawl-delay of the group that applies to the token, in ms (capped at MAX_CRAWL_DELAY_MS); null
   * when the file sets none (or there is no file). The spot-check does not read it; the crawler paces by it. */
  crawlDelayMs: number | null;
}

export interface RobotsFetchOptions {
  /** The token robots.txt groups are matched against, e.g. 'SitemapAuditBot'. */
  token: string;
  userAgent?: string;
  timeoutMs?: number;
  allowPrivateNetwork?: boolean;
  allowedPorts?: number[];
  signal?: AbortSignal;
  /** A request slot of the host (politeness) around the robots.txt request; null: cancelled meanwhile. */
  acquire?: () => Promise<(() => void) | null>;
  /** @internal Test seams of lib/net. */
  testHooks?: NetTestHooks;
}

// Google reads the first 500 KiB of a robots.txt and ignores the rest.
const ROBOTS_CAP = 500 * 1024;

/** A longer Crawl-delay is read as this: a site asking for minutes between requests would never be
 * crawled at all, and such values are typos or leftovers more often than intent. */
export const MAX_CRAWL_DELAY_MS = 60_000;

const ALLOW_ALL: RobotsRules = { refusal: () => null, crawlDelayMs: null };

/** The product token of a User-Agent ("SitemapAuditBot/0.1 (+…)" → "SitemapAuditBot"). */
export function robotsTokenOf(userAgent: string): string {
  return userAgent.trim().split(/[\s/]/)[0] ?? userAgent;
}

/**
 * Never throws. Like Google: 2xx → its rules; 4xx (but 429) or too many redirects → no rules, all
 * allowed; 429, 5xx or unreachable → everything disallowed for this run (Google does the same until it
 * reads the file again; a run is minutes long, so the whole run), except a host name that does not resolve:
 * a network error with DNS advice, not robots.txt's. A URL the SSRF guard refuses gets no
 * verdict here: the check's own request is refused with the guard's reason.
 */
export async function fetchRobotsRules(origin: string, opts: RobotsFetchOptions): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let release: () => void = () => {};
  try {
    if (opts.acquire) {
      const slot = await opts.acquire();
      if (slot === null) return cancelled(`The robots.txt request for ${origin} was cancelled`);
      release = slot;
    }
    const res = await safeFetch(robotsUrl, {
      timeoutMs: opts.timeoutMs ?? 15_000,
      // One retry for a server that blinked; a robots.txt that keeps failing closes the host for the run.
      retries: 1,
      maxRetryAfterMs: 5_000,
      userAgent: opts.userAgent,
      allowPrivateNetwork: opts.allowPrivateNetwork,
      allowedPorts: opts.allowedPorts,
      signal: opts.signal,
      testHooks: opts.testHooks,
    });
    if (res.status === 429 || res.status >= 500) {
      res.body.destroy();
      return disallowAll(`${robotsUrl} answered ${res.status}`);
    }
    if (res.status < 200 || res.status >= 300) {
      res.body.destroy();
      return ALLOW_ALL;
    }
    const robot = robotsParser(robotsUrl, await readText(res.body));
    return {
      crawlDelayMs: crawlDelayMsOf(robot.getCrawlDelay(opts.token)),
      refusal(url) {
        // undefined: another origin, which this file does not govern.
        if (robot.isAllowed(url.href, opts.token) !== false) return null;
        const line = robot.getMatchingLineNumber(url.href, opts.token);
        const where = line > 0 ? ` (line ${line})` : '';
        return {
          code: 'robots_disallowed',
          message: `${robotsUrl} disallows ${url.href} for ${opts.token}${where}`,
        };
      },
    };
  } catch (err) {
    if (!(err instanceof NetError)) throw err;
    if (err.code === 'aborted') return cancelled(err.message);
    // A name that does not resolve has no robots.txt and no pages either: each check says so (with the
    // DNS advice the error carries), rather than blaming robots.txt and offering its override.
    if (err.code === 'dns_failed') return UNRESOLVED;
    if (['too_many_redirects', 'redirect_loop', 'blocked_address', 'port_not_allowed'].includes(err.code)) {
      return ALLOW_ALL;
    }
    return disallowAll(err.message);
  } finally {
    release();
  }
}

/** robots-parser's delay (seconds, fractions allowed; NaN when unreadable) in ms, capped; null when unset. */
export function crawlDelayMsOf(seconds: number | undefined): number | null {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  return Math.min(Math.round(seconds * 1000), MAX_CRAWL_DELAY_MS);
}

function cancelled(message: string): RobotsRules {
  return { refusal: () => ({ code: 'cancelled', message }), crawlDelayMs: null };
}

const UNRESOLVED: RobotsRules = {
  crawlDelayMs: null,
  refusal: (url) => ({
    code: 'network',
    message: `${url.hostname} (in ${url.href}) could not be resolved${DNS_ADVICE}`,
  }),
};

function disallowAll(why: string): RobotsRules {
  return {
    crawlDelayMs: null,
    refusal: (url) => ({
      code: 'robots_disallowed',
      message: `${why}, so ${url.href} is treated as disallowed (as Google does); tick the robots.txt override to check it anyway`,
    }),
  };
}

async function readText(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= ROBOTS_CAP) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, ROBOTS_CAP).toString('utf8');
}
