// URL keys that decide whether a sitemap entry and a crawl row are "the same page".
// Pure and hot (ingest runs it for every URL), so each call parses once with WHATWG `URL`.

export type NormalizationProfile = 'exact' | 'lenient';

export interface UrlKeys {
  /** Key under the requested profile. */
  key: string;
  /** Near-match key: lenient, minus a leading `www.` and a final `index.html`/`index.htm`. */
  loose: string;
}

const SLASH = 47;

/** Parses once and returns the profile key and the loose key; null when raw is not an absolute http(s) URL. */
export function urlKeys(raw: string, profile: NormalizationProfile): UrlKeys | null {
  const url = parseHttpUrl(raw);
  if (url === null) return null;
  const authority = lenientAuthority(url);
  const path = url.pathname;
  const loose = `https://${stripWww(authority)}${stripTrailingSlashes(stripIndexFile(path))}`;
  const key = profile === 'exact' ? exactKey(url) : `https://${authority}${stripTrailingSlashes(path)}`;
  return { key: upperPercentEscapes(key), loose: upperPercentEscapes(loose) };
}

export function normalizeUrl(raw: string, profile: NormalizationProfile): string | null {
  const url = parseHttpUrl(raw);
  if (url === null) return null;
  if (profile === 'exact') return upperPercentEscapes(exactKey(url));
  return upperPercentEscapes(`https://${lenientAuthority(url)}${stripTrailingSlashes(url.pathname)}`);
}

export function looseKey(raw: string): string | null {
  const url = parseHttpUrl(raw);
  if (url === null) return null;
  const authority = stripWww(lenientAuthority(url));
  return upperPercentEscapes(`https://${authority}${stripTrailingSlashes(stripIndexFile(url.pathname))}`);
}

function parseHttpUrl(raw: string): URL | null {
  // trim() also removes a stray BOM or NBSP, which WHATWG's own trimming keeps.
  const text = raw.trim();
  let url: URL;
  try {
    // try/catch instead of URL.canParse: the happy path then parses once, not twice.
    url = new URL(text);
  } catch {
    return null;
  }
  const scheme = url.protocol;
  if (scheme !== 'http:' && scheme !== 'https:') return null;
  // WHATWG accepts `http:example.com` and `http:/x`; a sitemap or crawl URL without `//` is malformed input.
  if (text.charCodeAt(scheme.length) !== SLASH || text.charCodeAt(scheme.length + 1) !== SLASH) return null;
  return url;
}

/** href without the fragment and without an empty `?`; WHATWG already lowercased scheme/host,
 * applied IDNA and dropped the default port. */
function exactKey(url: URL): string {
  let href = url.href;
  const hashAt = href.indexOf('#');
  if (hashAt !== -1) href = href.slice(0, hashAt);
  // A trailing `?` can only be an empty query (a `?` inside the path would start the query).
  if (href.charCodeAt(href.length - 1) === 63) href = href.slice(0, -1);
  return href;
}

/** The lenient rule forces https, so an explicit :443 (valid on an http URL) is the default port there. */
function lenientAuthority(url: URL): string {
  const hostPort = url.port === '443' ? url.hostname : url.host;
  if (url.username === '' && url.password === '') return hostPort;
  const password = url.password === '' ? '' : `:${url.password}`;
  return `${url.username}${password}@${hostPort}`;
}

function stripWww(authority: string): string {
  const at = authority.indexOf('@');
  const hostStart = at + 1;
  if (authority.startsWith('www.', hostStart)) {
    return authority.slice(0, hostStart) + authority.slice(hostStart + 4);
  }
  return authority;
}

/** Like Python's rstrip('/') but `/` stays `/` (an empty path and `/` are the same resource). */
function stripTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  if (end === path.length) return path;
  return end === 0 ? '/' : path.slice(0, end);
}

function stripIndexFile(path: string): string {
  const slashAt = path.lastIndexOf('/');
  const segment = path.slice(slashAt + 1).toLowerCase();
  if (segment === 'index.html' || segment === 'index.htm') return path.slice(0, slashAt + 1);
  return path;
}

/** RFC 3986 §6.2.2.1: `%c3%a9` and `%C3%A9` are the same octets; WHATWG emits uppercase for what it
 * encodes itself but keeps the case it was given. Escapes are never decoded. */
function upperPercentEscapes(value: string): string {
  let at = value.indexOf('%');
  if (at === -1) return value;
  let out = '';
  let copiedTo = 0;
  while (at !== -1 && at + 2 < value.length) {
    const a = value.charCodeAt(at + 1);
    const b = value.charCodeAt(at + 2);
    if (isHex(a) && isHex(b) && (isLowerHex(a) || isLowerHex(b))) {
      out += value.slice(copiedTo, at + 1) + value.slice(at + 1, at + 3).toUpperCase();
      copiedTo = at + 3;
    }
    at = value.indexOf('%', at + 1);
  }
  if (copiedTo === 0) return value;
  return out + value.slice(copiedTo);
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

function isLowerHex(code: number): boolean {
  return code >= 97 && code <= 102;
}
