// What a rendered page says: its answer's headers, and the links, canonical and robots meta its DOM holds
// once its scripts ran. `readDom` runs inside the page; the rest shapes a PageFetch in Node.
import { parseRetryAfter } from '@/lib/net/retry-policy';
import { canonicalFromLinkHeader, headerSaysNoindex } from '@/lib/spot-check/header-signals';
import { saysNoindex } from '@/lib/spot-check/html-signals';
import { type DocumentAnswer, headerText } from './render-network';
import { type PageFetch, unanswered } from './types';

/** The DOM as read in the page: links already absolute, fragment-free and each once. */
export interface DomSignals {
  links: string[];
  /** More links than the cap: the rest are unseen. */
  moreLinks: boolean;
  canonical: string | null;
  robots: { name: string; content: string }[];
}

/** What the page says, from its answer's headers and (when rendered) its DOM. */
export function fromAnswer(
  answer: DocumentAnswer,
  dom: DomSignals | null,
  fetchedAt: Date,
  responseMs: number | null,
): PageFetch {
  const { url, status, headers } = answer;
  const noindexSources = new Set<string>();
  let nofollow = false;
  for (const meta of dom?.robots ?? []) {
    if (saysNoindex(meta.content)) noindexSources.add(`meta:${meta.name}`);
    if (saysNofollow(meta.content)) nofollow = true;
  }
  if (headerSaysNoindex(headers['x-robots-tag'])) noindexSources.add('header');
  const headerCanonical = canonicalFromLinkHeader(headers.link, url);
  const canonical = dom?.canonical ?? headerCanonical;
  return {
    url,
    status,
    redirectUrl: redirectTarget(status, headerText(headers.location), url),
    contentType: headerText(headers['content-type']),
    canonical,
    // The page's own tag wins over the header when both are present.
    canonicalSource: dom?.canonical ? 'link' : headerCanonical ? 'header' : null,
    noindex: noindexSources.size > 0,
    noindexSources: [...noindexSources],
    nofollow,
    blockedByRobots: false,
    method: 'GET',
    responseMs: responseMs === null ? null : Math.round(responseMs),
    fetchedAt,
    links: dom?.links ?? [],
    retryAfterMs: status === 429 || status === 503 ? (parseRetryAfter(headers['retry-after']) ?? null) : null,
    truncated: answer.truncated || (dom?.moreLinks ?? false),
    error: null,
  };
}

/**
 * Runs inside the page. Plain loops only: a bundler's helpers (a function's name kept by a wrapper)
 * do not exist in the page, so nothing here may be a named inner function.
 */
export function readDom(maxLinks: number): DomSignals {
  const base = document.baseURI;
  const seen = new Set<string>();
  const links: string[] = [];
  let moreLinks = false;
  for (const element of Array.from(document.querySelectorAll('a[href], area[href], link[href]'))) {
    const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (element.localName === 'link' && !rels.includes('next') && !rels.includes('prev')) continue;
    if (rels.includes('nofollow')) continue;
    let href: URL;
    try {
      href = new URL((element.getAttribute('href') ?? '').trim(), base);
    } catch {
      continue;
    }
    if (href.protocol !== 'http:' && href.protocol !== 'https:') continue;
    href.hash = '';
    if (seen.has(href.href)) continue;
    if (links.length >= maxLinks) {
      moreLinks = true;
      break;
    }
    seen.add(href.href);
    links.push(href.href);
  }
  let canonical: string | null = null;
  for (const element of Array.from(document.head?.querySelectorAll('link[href]') ?? [])) {
    const rels = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const href = (element.getAttribute('href') ?? '').trim();
    if (!rels.includes('canonical') || href === '') continue;
    try {
      const target = new URL(href, base);
      if (target.protocol === 'http:' || target.protocol === 'https:') canonical = target.href;
    } catch {
      // An unreadable canonical is none, as the plain reader treats it.
    }
    break;
  }
  const robots: DomSignals['robots'] = [];
  for (const element of Array.from(document.querySelectorAll('meta[name][content]'))) {
    const name = (element.getAttribute('name') ?? '').trim().toLowerCase();
    if (name === 'robots' || name === 'googlebot')
      robots.push({ name, content: element.getAttribute('content') ?? '' });
  }
  return { links, moreLinks, canonical, robots };
}

function saysNofollow(directives: string): boolean {
  return directives
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .some((d) => d === 'nofollow' || d === 'none');
}

function redirectTarget(status: number, location: string | null, url: string): string | null {
  if (status < 300 || status > 399 || location === null) return null;
  try {
    return new URL(location, url).href;
  } catch {
    return null;
  }
}

export function failed(url: string, fetchedAt: Date, code: string, message: string): PageFetch {
  return { ...unanswered(url, fetchedAt, 'GET'), error: { code, message } };
}
