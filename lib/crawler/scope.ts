// Pure rules of the crawl frontier: what a discovered link becomes (the URL fetched and its key), whether it
// is the crawl's to fetch, the section the reconciliation files it under, and the keys its trap limits count.
import { type NormalizationProfile, normalizeUrl } from '@/lib/urls/normalize';

/** Query (and path-parameter) names that carry a session, not a page: a crawler that kept them would fetch
 * every page once per session. ASP classic appends a suffix (ASPSESSIONIDQACTSRDB). */
const SESSION_NAME =
  /^(?:sid|sessid|sessionid|session_id|phpsessid|jsessionid|aspsessionid[a-z]*|cfid|cftoken|oscsid|zenid)$/i;
const SESSION_PATH_PARAM = /;(?:jsessionid|sessionid|sid|phpsessid)=[^/;?#]*/gi;

export interface FrontierUrl {
  /** What is fetched: fragment dropped, session ids stripped, otherwise as linked. */
  url: string;
  /** The audit profile's key of `url`: the frontier's identity. */
  key: string;
  /** host:port (the default port omitted), as scope and the host lanes name a host. */
  host: string;
  /** `url` parsed, for the trap keys. */
  parsed: URL;
}

/** A link as the frontier admits it, or null when it is not an absolute http(s) URL. */
export function frontierUrl(raw: string, profile: NormalizationProfile): FrontierUrl | null {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.hash !== '') parsed.hash = '';
  if (parsed.pathname.includes(';')) parsed.pathname = parsed.pathname.replace(SESSION_PATH_PARAM, '');
  if (parsed.search.length > 1) parsed.search = withoutSessionParams(parsed.search);
  let url = parsed.href;
  // An emptied query leaves nothing behind (`/a?` is `/a`).
  if (url.endsWith('?')) url = url.slice(0, -1);
  const normal = normalizeUrl(url, profile);
  if (normal === null) return null;
  // One string where they are equal (the exact profile, mostly): the frontier keeps both per URL.
  const key = normal === url ? url : normal;
  return { url, key, host: parsed.host, parsed };
}

/** The query without session parameters, the rest kept byte for byte and in order. */
function withoutSessionParams(search: string): string {
  const parts = search.slice(1).split('&');
  const kept = parts.filter((part) => {
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    return !SESSION_NAME.test(safeDecode(name));
  });
  if (kept.length === parts.length) return search;
  return kept.length === 0 ? '' : `?${kept.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The hosts (host:port) a crawl may fetch; the start URL's redirect target joins it (www ↔ apex). */
export class CrawlScope {
  private readonly hosts = new Set<string>();

  constructor(hosts: Iterable<string> = []) {
    for (const host of hosts) this.add(host);
  }

  /** Accepts `host`, `host:port` or a URL; stores host:port as WHATWG spells it (lowercase, no default port). */
  add(host: string): boolean {
    const name = hostOf(host);
    if (name === null || this.hosts.has(name)) return false;
    this.hosts.add(name);
    return true;
  }

  has(host: string): boolean {
    return this.hosts.has(host);
  }

  list(): string[] {
    return [...this.hosts];
  }
}

function hostOf(text: string): string | null {
  try {
    return new URL(text.includes('://') ? text : `http://${text}`).host;
  } catch {
    return null;
  }
}

/** A key's section exactly as the reconciliation's SQL computes it (`split_part(key, '/', 3) || '/' ||
 * (split_part(key, '/', 4) when split_part(key, '/', 5) <> '')`): `https://h/blog/post` → `h/blog`,
 * `https://h/about` and `https://h/` → `h/`. */
export function sectionOf(key: string): string {
  const parts = key.split('/', 5);
  const host = parts[2] ?? '';
  const fifth = parts[4] ?? '';
  return `${host}/${fifth === '' ? '' : (parts[3] ?? '')}`;
}

/** The keys the trap limits count a URL under. */
export interface TrapKeys {
  /** host + path with every segment holding a digit as `*`, plus the sorted query names:
   * `/calendar/2024/05?view=1&day=3` → `h/calendar/*\/*?day&view`. */
  pattern: string;
  /** host + path without the query: its distinct query strings are the query variants. */
  path: string;
  /** The query string (without `?`), '' when none. */
  query: string;
}

const DIGIT = /\d/;

export function trapKeys(url: URL): TrapKeys {
  const path = `${url.host}${url.pathname}`;
  const segments = url.pathname.split('/').map((segment) => (DIGIT.test(segment) ? '*' : segment));
  const query = url.search.length > 1 ? url.search.slice(1) : '';
  let names = '';
  if (query !== '') {
    const unique = new Set<string>();
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      unique.add(eq === -1 ? part : part.slice(0, eq));
    }
    names = `?${[...unique].sort().join('&')}`;
  }
  return { pattern: `${url.host}${segments.join('/')}${names}`, path, query };
}
