// Every reason, "Not added" bucket and signal explained once (isomorphic): a short label, a one-sentence
// definition and the usual fix, as docs/reconciliation.md defines them. The audit page, the shared report
// and the PDF all show these words.
import type { ADD_REASONS, FindingSignal, HELD_REASONS, PRUNE_REASONS, TAddExcluded } from './schema';

export interface ReasonInfo {
  label: string;
  definition: string;
  fix: string;
}

type NamedReason =
  | Exclude<(typeof PRUNE_REASONS)[number], 'http_4xx_5xx'>
  | (typeof HELD_REASONS)[number]
  | (typeof ADD_REASONS)[number];

const REASONS: Record<NamedReason, ReasonInfo> = {
  unreached_by_crawl: {
    label: 'Not reached by the crawl',
    definition: 'Declared in the sitemap, but the crawl never reached it although it crawled its section.',
    fix: 'Remove it from the sitemap if the page is gone; if it should exist, link to it and crawl again.',
  },
  url_variant: {
    label: 'URL variant',
    definition:
      'Not crawled as declared, but crawled under another form of the same URL (scheme, www., trailing slash or index.html).',
    fix: 'Replace the declared URL with the crawled form, which is on the Add list.',
  },
  blocked_by_robots: {
    label: 'Blocked by robots.txt',
    definition: 'robots.txt does not let crawlers fetch it, so search engines cannot read the page.',
    fix: 'Remove it from the sitemap, or allow it in robots.txt if it should be indexed.',
  },
  no_response: {
    label: 'No response',
    definition: 'The crawl got no answer at all (status 0: a timeout, a DNS or a connection failure).',
    fix: 'Check that the URL loads: remove it if it is gone, crawl again if the server was down.',
  },
  redirects: {
    label: 'Redirects',
    definition:
      'It answers with a redirect (301, 302, 303, 307 or 308), and a sitemap should list final URLs.',
    fix: 'Replace it with the redirect target when that answers 200; otherwise remove it.',
  },
  non_canonical: {
    label: 'Not canonical',
    definition: 'Its canonical names another URL, so search engines index that one instead.',
    fix: 'Replace it with the canonical URL, or fix the canonical tag if this URL is the one to index.',
  },
  noindex: {
    label: 'Noindex',
    definition:
      'The page asks not to be indexed (meta robots or X-Robots-Tag), or is not indexable with nothing else to explain it.',
    fix: 'Remove it from the sitemap, or lift the noindex if the page should be found.',
  },
  newer_than_crawl: {
    label: 'Newer than the crawl',
    definition:
      'Not reached by the crawl, but its lastmod is newer than the crawl: it may not have existed yet.',
    fix: 'Crawl again before judging it.',
  },
  section_not_crawled: {
    label: 'Section not crawled',
    definition:
      'Not reached, and the crawl has no page at all in its section (host and first directory), or the built-in crawler was cut there by a limit or stopped early: the crawl did not cover that section completely.',
    fix: "Crawl that section (check the crawl's start URLs, limits and exclusions), then reconcile again.",
  },
  crawl_mismatch: {
    label: 'Crawl does not match',
    definition:
      'Not reached by a crawl that does not match the sitemap (none of its hosts, under 20 % of its sections, or mostly other URLs and under 20 % of its own): a crawl of another site, or of an older version of this one, says nothing about this URL.',
    fix: 'Crawl the site the sitemap describes, as it is now, and reconcile again; do not prune on this crawl.',
  },
  canonical_conflict: {
    label: 'Canonical conflict',
    definition:
      'Its canonical redirects or does not answer 200, or it redirects to a page whose canonical points back: a loop or a chain, so neither URL is safe to prune or to offer as a replacement.',
    fix: 'Make the redirects and the canonicals agree on one URL that answers 200 (for example: www and apex), then crawl again.',
  },
  canonical_pattern: {
    label: 'Canonical pattern',
    definition:
      'Its canonical is shared by many declared pages that are not copies of it (5 or more, or any page naming the home page): usually a template bug, such as a single-page app writing the home page as every canonical.',
    fix: 'Fix the canonical tags so each page names itself (or a true duplicate), then crawl again; do not remove the pages.',
  },
  server_error: {
    label: 'Server error',
    definition:
      'The crawl saw a server error (5xx) or 429 Too Many Requests: one bad minute of a server is no reason to drop a URL.',
    fix: 'Check that it loads now and crawl again (more slowly after a 429); prune it only if the error stays.',
  },
  reachable_not_declared: {
    label: 'Reachable, not declared',
    definition:
      'An indexable HTML page the crawl found (200, self-canonical, no noindex) that no sitemap declares.',
    fix: 'Add it to the sitemap, unless it should not be indexed (then noindex it or canonicalise it elsewhere).',
  },
};

const HTTP_REASON = /^http_(\d{3})$/;

/** What a client error says about the page: 404 and 410 differ (missing vs. removed for good), and only
 * 401 and 403 are about access. */
function clientErrorDefinition(status: number): string {
  if (status === 404) return 'It answers HTTP 404 Not Found: the page is missing, so search engines drop it.';
  if (status === 410)
    return 'It answers HTTP 410 Gone: the site says the page was removed for good, so search engines drop it.';
  if (status === 401 || status === 403)
    return `It answers HTTP ${status}: the page refuses access without a login or permission, so search engines cannot index it.`;
  return `It answers HTTP ${status}, a client error: search engines do not index a page that answers it.`;
}

function clientErrorFix(status: number): string {
  if (status === 410) return 'Remove it from the sitemap: the page is gone on purpose.';
  if (status === 401 || status === 403)
    return 'Remove it from the sitemap, or open the page to visitors if it should be found.';
  return 'Remove it from the sitemap, or restore the page (or redirect it and declare the target).';
}

function httpInfo(status: number): ReasonInfo {
  const isServerError = status >= 500 || status === 429;
  return {
    label: `HTTP ${status}`,
    definition: isServerError
      ? `It answers HTTP ${status}, a server error, pruned because the audit prunes server errors (options.serverErrors).`
      : clientErrorDefinition(status),
    fix: isServerError
      ? 'Check that it loads now and crawl again; remove it from the sitemap if the error stays.'
      : clientErrorFix(status),
  };
}

/** The words for a reason: `http_404` and every other status included; an unknown code gets its name. */
export function reasonInfo(reason: string): ReasonInfo {
  if (Object.hasOwn(REASONS, reason)) return REASONS[reason as NamedReason];
  const http = HTTP_REASON.exec(reason);
  if (http) return httpInfo(Number(http[1]));
  const words = reason.replace(/_/g, ' ').trim();
  return {
    label: words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unknown reason',
    definition: 'A rule this version does not describe yet.',
    fix: 'Look at the evidence of the row before deciding.',
  };
}

/** True for the reasons that have words of their own (every http_<status> included). */
export function isDescribedReason(reason: string): boolean {
  return Object.hasOwn(REASONS, reason) || HTTP_REASON.test(reason);
}

/** Why an undeclared crawled page is not on the add list, in the order the reconcile judges it (the first
 * that applies counts): a page on a host the sitemap does not declare (nor its www twin) is another site's,
 * whatever it answers; then in the prune side's order: blocked, not 200, a 200 that is not an HTML page (an
 * image, a script: the content type of a redirect or an error says nothing), canonicalised elsewhere, then
 * noindex (an explicit one, or "not indexable" that nothing before explains). The summary lists them in
 * this order too. */
export const ADD_EXCLUSIONS = [
  'otherHost',
  'blocked',
  'non200',
  'nonHtml',
  'canonicalised',
  'noindex',
] as const satisfies readonly (keyof TAddExcluded)[];

/** Why undeclared crawled pages are not on the Add list (`findings.addExcluded`), in the rule's order. */
export const EXCLUDED_INFO: Record<keyof TAddExcluded, ReasonInfo> = {
  otherHost: {
    label: 'Another host',
    definition:
      'Pages on a host the sitemap declares no URL on (nor its www or non-www twin): another site, such as YouTube, maps or social links a crawl followed.',
    fix: 'Nothing to add: a sitemap lists its own site. If the crawl is of another site altogether, crawl this one.',
  },
  blocked: {
    label: 'Blocked by robots.txt',
    definition: 'Crawled URLs that robots.txt blocks: search engines cannot read them.',
    fix: 'Nothing to add; allow them in robots.txt first if they should be indexed.',
  },
  non200: {
    label: 'Not 200',
    definition: 'Redirects, errors and URLs without a response: not pages to add.',
    fix: 'Nothing to add; link to final URLs instead of redirecting ones and fix the broken links.',
  },
  nonHtml: {
    label: 'Not HTML',
    definition: 'Images, CSS, scripts, PDFs and other resources that answer 200: never pages to add.',
    fix: 'Nothing to do: a sitemap lists pages (declare a PDF by hand if you want it indexed).',
  },
  canonicalised: {
    label: 'Canonicalised',
    definition: 'Their canonical is another URL ("Canonicalised, noindex" counts here).',
    fix: 'Nothing to add: the canonical URL is the one to declare.',
  },
  noindex: {
    label: 'Noindex',
    definition: 'An explicit noindex, or not indexable with nothing above to explain it.',
    fix: 'Nothing to add; lift the noindex first if the page should be found.',
  },
};

/** Signals beside the reasons (filters and audit warnings). */
export const SIGNAL_INFO: Record<FindingSignal, ReasonInfo> = {
  multi_file: {
    label: 'In several sitemap files',
    definition: 'The URL is declared in more than one sitemap file.',
    fix: 'Keep it in one file, so that editing one file cannot leave a stale copy in another.',
  },
  redirect_canonical_conflict: {
    label: 'Redirect and canonical conflict',
    definition:
      'It redirects to a page whose canonical points back to it (www → apex redirects fighting apex → www canonicals).',
    fix: 'Make the redirects and the canonicals agree on one form of the URL, and declare that form.',
  },
  canonical_chain: {
    label: 'Canonical chain',
    definition: 'Its canonical was crawled and redirects or does not answer 200.',
    fix: 'Point the canonical straight at the final URL that answers 200.',
  },
  variant_canonicalised: {
    label: 'Variant canonicalised elsewhere',
    definition:
      'The crawled form of this URL variant names another URL as its canonical: it is no replacement.',
    fix: 'Declare the canonical URL instead of either form.',
  },
  unreached_confirmed: {
    label: 'Confirmed across two crawls',
    definition: "The crawl did not reach it, and the site's previous complete audit did not reach it either.",
    fix: 'Two crawls agree nothing links to it: prune it, or link to it if it should stay.',
  },
};

/** The words for a signal; an unknown one gets its name. */
export function signalInfo(signal: string): ReasonInfo {
  return Object.hasOwn(SIGNAL_INFO, signal) ? SIGNAL_INFO[signal as FindingSignal] : reasonInfo(signal);
}
