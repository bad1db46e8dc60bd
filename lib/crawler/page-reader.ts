// What the crawler reads from an HTML page while it streams in: the links it may follow, the first canonical
// in <head> and the robots meta. Built for crawl speed: no text is kept, and each distinct href is parsed
// as a URL once, at the end, against the page's <base>.
import { Parser } from 'htmlparser2';
import { HEAD_ELEMENTS, saysNofollow, saysNoindex } from '@/lib/spot-check/html-signals';

export interface PageSignals {
  /** Absolute http(s) URLs of a[href], area[href] and link[rel~=next|prev], fragments dropped, each once,
   * in document order; links marked rel=nofollow are left out. */
  links: string[];
  /** Distinct URLs linked only with rel=nofollow (counted, not followed). */
  nofollowLinks: number;
  /** Absolute URL of the first <link rel=canonical> in <head>, or null. */
  canonical: string | null;
  /** 'meta:robots' and/or 'meta:googlebot' when a robots meta says noindex or none. */
  noindexSources: string[];
  /** A robots or googlebot meta says nofollow or none. */
  nofollow: boolean;
}

export interface PageReader {
  write(text: string): void;
  end(): PageSignals;
}

// Schemes that never name a page: skipped before any URL parsing.
const SCHEME = /^[\s]*([a-zA-Z][a-zA-Z0-9+.-]*):/;

function relTokens(rel: string | undefined): string[] {
  return rel === undefined ? [] : rel.toLowerCase().split(/\s+/);
}

/** `pageUrl` is the URL the page was fetched from: relative links resolve against it (or <base href>). */
export function createPageReader(pageUrl: string): PageReader {
  // Raw hrefs in document order; the flag says whether the link may be followed. The same raw text
  // resolves to the same URL, so it is kept once (followed wins over nofollow).
  const hrefs = new Map<string, boolean>();
  const noindexSources: string[] = [];
  let nofollow = false;
  let canonicalHref: string | null = null;
  let baseHref: string | null = null;
  let inHead = true;

  const addHref = (href: string, followed: boolean) => {
    // Fragment-only and empty hrefs point inside this page: they are not links to another document.
    if (href === '' || href.charCodeAt(0) === 35 /* # */) return;
    const scheme = SCHEME.exec(href)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return;
    const seen = hrefs.get(href);
    if (seen === undefined || (followed && !seen)) hrefs.set(href, followed);
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (inHead && (name === 'body' || !HEAD_ELEMENTS.has(name))) inHead = false;
        switch (name) {
          case 'a':
          case 'area':
            if (attrs.href !== undefined)
              addHref(attrs.href.trim(), !relTokens(attrs.rel).includes('nofollow'));
            break;
          case 'link': {
            if (attrs.href === undefined) break;
            const rels = relTokens(attrs.rel);
            if (rels.includes('next') || rels.includes('prev')) addHref(attrs.href.trim(), true);
            if (inHead && canonicalHref === null && rels.includes('canonical') && attrs.href.trim() !== '')
              canonicalHref = attrs.href.trim();
            break;
          }
          case 'base':
            if (inHead && baseHref === null && attrs.href) baseHref = attrs.href.trim();
            break;
          case 'meta': {
            const who = (attrs.name ?? '').trim().toLowerCase();
            if (who !== 'robots' && who !== 'googlebot') break;
            const content = attrs.content ?? '';
            if (saysNoindex(content) && !noindexSources.includes(`meta:${who}`))
              noindexSources.push(`meta:${who}`);
            if (saysNofollow(content)) nofollow = true;
            break;
          }
        }
      },
      onclosetag(name, isImplied) {
        if (name === 'head' && !isImplied) inHead = false;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  return {
    write: (chunk) => parser.write(chunk),
    end() {
      parser.end();
      const base = baseOf(baseHref, pageUrl);
      const followed = new Set<string>();
      const notFollowed = new Set<string>();
      for (const [href, follow] of hrefs) {
        const url = absolute(href, base);
        if (url === null) continue;
        if (follow) followed.add(url);
        else notFollowed.add(url);
      }
      let nofollowLinks = 0;
      for (const url of notFollowed) if (!followed.has(url)) nofollowLinks++;
      return {
        links: [...followed],
        nofollowLinks,
        canonical: canonicalHref === null ? null : absolute(canonicalHref, base),
        noindexSources,
        nofollow,
      };
    },
  };
}

/** The document's base URL: <base href> resolved against the page, when that gives an http(s) URL. */
function baseOf(baseHref: string | null, pageUrl: string): string {
  if (baseHref === null) return pageUrl;
  return absolute(baseHref, pageUrl) ?? pageUrl;
}

/** `href` made absolute against `base`, fragment dropped; null unless it is a valid http(s) URL. */
function absolute(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // The fragment is the serialised URL's last part, and a '#' before it would have been escaped.
  const text = url.href;
  const hash = text.indexOf('#');
  return hash < 0 ? text : text.slice(0, hash);
}
