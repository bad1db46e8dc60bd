// The verdict of one spot-check: what the live site answers now, read the way the reconciliation reads a
// crawl row (docs/reconciliation.md), compared with the finding's reason. Pure: the run step calls it per row.
import type { FindingList } from '@/lib/findings/schema';
import { looseKey, type NormalizationProfile, normalizeUrl } from '@/lib/urls/normalize';
import { RESOURCE_EXTENSIONS } from '@/lib/urls/resource-path';
import { isSoft404 } from './soft404';
import type { HostProbe, LiveErrorCode, LiveResult, Verdict } from './types';

/** The finding's facts a verdict needs (a FindingDto or a stored row both have them). */
export interface CheckedFinding {
  list: FindingList;
  reason: string;
  url: string;
  canonical?: string | null;
  redirectUrl?: string | null;
}

export interface VerdictOptions {
  /** The audit's normalization profile: "self-canonical" and "same page" compare keys as the audit did. */
  profile?: NormalizationProfile;
}

export interface VerdictOf {
  verdict: Verdict;
  /** The live site's own reason (null when the page is healthy or could not be checked). */
  liveReason: string | null;
  /** One sentence for the reviewer. */
  explanation: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The reconciliation's list, for answers without a content type. */
const RESOURCE_PATH = new RegExp(`\\.(${RESOURCE_EXTENSIONS})$`);
/** Held reasons of URLs the crawl never fetched: like unreached_by_crawl, the live answer is the first look. */
const UNFETCHED = new Set([
  'unreached_by_crawl',
  'newer_than_crawl',
  'section_not_crawled',
  'crawl_mismatch',
]);
/** Held reasons about a canonical or a redirect the crawl saw: they hold while the live page still sends
 * search engines elsewhere (by its canonical or a redirect), and are fixed when it names itself. */
const CANONICAL_HELD = new Set(['canonical_conflict', 'canonical_pattern']);

const isServerStatus = (status: number) => status >= 500 || status === 429;
/** http_503 (pruned with options.serverErrors "prune") and the held server_error are the same problem. */
const isServerReason = (reason: string) =>
  reason === 'server_error' || (/^http_\d{3}$/.test(reason) && isServerStatus(Number(reason.slice(5))));

/** Whether the final answer is an HTML page, as the add list decides it (content type, else the path). */
export function isHtmlAnswer(contentType: string | null, url: string): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '') return type === 'text/html' || type === 'application/xhtml+xml';
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return true;
  }
  return !RESOURCE_PATH.test(path);
}

/** The live reason an error itself stands for, when it is one the crawl could have seen too. */
function errorReason(live: LiveResult): string | null {
  const code: LiveErrorCode | undefined = live.error?.code;
  if (code === 'robots_disallowed') return 'blocked_by_robots';
  if (code === 'timeout' || code === 'network') return 'no_response';
  if (code === 'rate_limited' && live.finalStatus !== null && isServerStatus(live.finalStatus)) {
    return 'server_error';
  }
  return null;
}

/**
 * The live site's reason for a URL that answered, in the reconciliation's precedence: server error,
 * http_<status>, redirects (the first hop), then for a 200: soft 404, canonical elsewhere, noindex,
 * non-HTML. Null: a 200 HTML page, indexable and self-canonical.
 */
export function liveReasonOf(
  live: LiveResult,
  probe?: HostProbe | null,
  profile: NormalizationProfile = 'exact',
): string | null {
  const first = live.chain[0];
  const status = first?.status ?? live.finalStatus;
  if (status === null || status === undefined) return 'no_response';
  if (isServerStatus(status)) return 'server_error';
  if (status >= 400) return `http_${status}`;
  if (REDIRECTS.has(status)) return 'redirects';
  if (status !== 200) return `http_${status}`;
  if (isSoft404(live, probe)) return 'soft_404';
  if (live.canonical !== null && !sameKey(live.canonical, live.finalUrl, profile)) return 'non_canonical';
  if (live.noindex) return 'noindex';
  // Last, as in the reconciliation: a declared resource is judged by its noindex and canonical (Yoast
  // serves its sitemap XML with X-Robots-Tag: noindex), and only the add list needs an HTML page.
  if (!isHtmlAnswer(live.contentType, live.finalUrl)) return 'non_html';
  return null;
}

function sameKey(a: string, b: string, profile: NormalizationProfile): boolean {
  const ka = normalizeUrl(a, profile);
  return ka !== null && ka === normalizeUrl(b, profile);
}

/** Whether the page is gone: it ends in 404 or 410, or in a "nothing here" page, directly or after redirects
 * (a URL sent to the page the host's probe lands on, often the home page, is a soft 404 too). */
function isGone(live: LiveResult, probe: HostProbe | null | undefined): boolean {
  return live.finalStatus === 404 || live.finalStatus === 410 || isSoft404(live, probe);
}

/** What the live answer is, in words, for the explanations. */
function describeAnswer(live: LiveResult, liveReason: string | null, soft: boolean): string {
  const hops = live.chain.length - 1;
  const base =
    hops > 0
      ? `redirects to ${live.finalUrl} (${hops} hop${hops === 1 ? '' : 's'}), which answers ${live.finalStatus}`
      : `answers ${live.finalStatus}`;
  switch (liveReason) {
    case null:
      return `${base}, an indexable, self-canonical HTML page`;
    case 'non_html':
      return `${base} with ${live.contentType ?? 'no content type'}, not an HTML page`;
    case 'soft_404':
      return `${base}, but it is a "not found" page (soft 404)`;
    case 'non_canonical':
      return `${base} with its canonical elsewhere (${live.canonical})`;
    case 'noindex':
      return `${base} with noindex (${live.noindexSources.join(', ') || 'noindex'})`;
    default:
      return soft ? `${base}, a "not found" page (soft 404)` : base;
  }
}

/** Compares the live answer with the finding: confirmed, contradicted, changed, orphan_live, dead,
 * recovered or error (rules in docs/spot-checks.md). */
export function verdictOf(
  finding: CheckedFinding,
  live: LiveResult,
  probe?: HostProbe | null,
  options: VerdictOptions = {},
): VerdictOf {
  const profile = options.profile ?? 'exact';
  if (live.error) {
    // An error is the answer when it is the finding's own problem (a timeout for no_response, robots.txt
    // for blocked_by_robots, a 503 that stays for server_error); otherwise the page went unchecked.
    const reason = errorReason(live);
    if (reason !== null && matches(finding.reason, reason)) {
      return {
        verdict: 'confirmed',
        liveReason: reason,
        explanation: `Still ${reason}: ${live.error.message}`,
      };
    }
    return { verdict: 'error', liveReason: null, explanation: `Could not check: ${live.error.message}` };
  }
  const liveReason = liveReasonOf(live, probe, profile);
  const gone = isGone(live, probe);
  const said = `The live page ${describeAnswer(live, liveReason, gone && live.finalStatus === 200)}`;

  if (finding.list === 'add') {
    return liveReason === null
      ? { verdict: 'confirmed', liveReason, explanation: `${said}: add it.` }
      : { verdict: 'changed', liveReason, explanation: `${said}: no longer a page to add.` };
  }

  if (finding.reason === 'server_error') {
    if (liveReason === 'server_error') return { verdict: 'confirmed', liveReason, explanation: `${said}.` };
    if (gone) return { verdict: 'dead', liveReason, explanation: `${said}: the page is gone.` };
    if (liveReason === null) {
      return { verdict: 'recovered', liveReason, explanation: `${said}: the server error is over.` };
    }
    return { verdict: 'changed', liveReason, explanation: `${said}.` };
  }

  if (UNFETCHED.has(finding.reason)) {
    if (gone) return { verdict: 'dead', liveReason, explanation: `${said}: the page is gone, prune it.` };
    if (liveReason === null) {
      return {
        verdict: 'orphan_live',
        liveReason,
        explanation: `${said}: it is live but nothing links to it. Add internal links; do not prune.`,
      };
    }
    return { verdict: 'changed', liveReason, explanation: `${said}.` };
  }

  // The other prune reasons: the crawl saw a problem; does the live site show the same one?
  if (stillHolds(finding, live, liveReason, gone, profile)) {
    return {
      verdict: 'confirmed',
      liveReason,
      explanation: `${said}: the reason holds${sinceCrawl(finding, live)}.`,
    };
  }
  if (liveReason === null) {
    return {
      verdict: 'contradicted',
      liveReason,
      explanation: `${said}: the crawl's reason no longer holds.`,
    };
  }
  return { verdict: 'changed', liveReason, explanation: `${said}.` };
}

/** What moved since the crawl although the reason holds: the redirect's target or the canonical. */
function sinceCrawl(finding: CheckedFinding, live: LiveResult): string {
  const target = live.chain[1]?.url;
  if (finding.reason === 'redirects' && finding.redirectUrl && target && target !== finding.redirectUrl) {
    return ` (the crawl saw it redirect to ${finding.redirectUrl})`;
  }
  if (finding.reason === 'non_canonical' && finding.canonical && live.canonical !== finding.canonical) {
    return ` (the crawl saw the canonical ${finding.canonical})`;
  }
  return '';
}

function matches(findingReason: string, liveReason: string): boolean {
  return findingReason === liveReason || (isServerReason(findingReason) && isServerReason(liveReason));
}

function stillHolds(
  finding: CheckedFinding,
  live: LiveResult,
  liveReason: string | null,
  gone: boolean,
  profile: NormalizationProfile,
): boolean {
  if (liveReason !== null && matches(finding.reason, liveReason)) return true;
  if (CANONICAL_HELD.has(finding.reason)) return liveReason === 'non_canonical' || liveReason === 'redirects';
  // A missing page stays missing when it now redirects to a 404 or answers a "not found" 200.
  if ((finding.reason === 'http_404' || finding.reason === 'http_410') && gone) return true;
  // A variant holds while the declared form sends search engines to another form of the same URL.
  if (finding.reason === 'url_variant' && (liveReason === 'redirects' || liveReason === 'non_canonical')) {
    const other = liveReason === 'redirects' ? live.finalUrl : live.canonical;
    const declared = looseKey(finding.url);
    return (
      other !== null &&
      declared !== null &&
      !sameKey(other, finding.url, profile) &&
      looseKey(other) === declared
    );
  }
  return false;
}
