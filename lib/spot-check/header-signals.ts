// Indexing signals a response carries in its headers: X-Robots-Tag noindex (for every crawler or
// Googlebot) and a `Link: <…>; rel="canonical"`. Pure text parsing, no network.
import { saysNofollow, saysNoindex } from './html-signals';

type HeaderValue = string | string[] | undefined;

// Directives whose own value contains a colon; anything else before a colon names a crawler.
const VALUED_DIRECTIVES = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
]);

/**
 * True when an X-Robots-Tag applies noindex/none to all crawlers or to Googlebot. A value such as
 * "otherbot: noindex, nofollow" scopes every directive after the name to that crawler, until the next
 * name; Node joins repeated headers with ", ", so each header line is read the same way.
 */
export function headerSaysNoindex(value: HeaderValue): boolean {
  return headerSays(value, saysNoindex);
}

/** True when an X-Robots-Tag applies nofollow/none to all crawlers or to Googlebot (scoped as above). */
export function headerSaysNofollow(value: HeaderValue): boolean {
  return headerSays(value, saysNofollow);
}

function headerSays(value: HeaderValue, says: (directives: string) => boolean): boolean {
  const lines = value === undefined ? [] : Array.isArray(value) ? value : [value];
  for (const line of lines) {
    let agent: string | null = null;
    for (const part of line.split(',')) {
      let directive = part.trim();
      const colon = directive.indexOf(':');
      if (colon > 0) {
        const name = directive.slice(0, colon).trim().toLowerCase();
        if (!VALUED_DIRECTIVES.has(name)) {
          agent = name;
          directive = directive.slice(colon + 1).trim();
        }
      }
      if ((agent === null || agent === 'googlebot') && says(directive)) return true;
    }
  }
  return false;
}

/** The first `Link` target with rel="canonical", resolved against `pageUrl`; null when none is usable. */
export function canonicalFromLinkHeader(value: HeaderValue, pageUrl: string): string | null {
  const text = value === undefined ? '' : Array.isArray(value) ? value.join(', ') : value;
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('<', at);
    if (open < 0) break;
    const close = text.indexOf('>', open);
    if (close < 0) break;
    const target = text.slice(open + 1, close).trim();
    const { params, end } = readParams(text, close + 1);
    at = end;
    const rel = params.get('rel');
    if (rel?.toLowerCase().split(/\s+/).includes('canonical')) {
      try {
        const url = new URL(target, pageUrl);
        if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
      } catch {
        // An unreadable target is no canonical; a later link may still be one.
      }
    }
  }
  return null;
}

/** Reads `; name=value` pairs (values may be quoted, with commas inside) up to the comma ending a link. */
function readParams(text: string, from: number): { params: Map<string, string>; end: number } {
  const params = new Map<string, string>();
  let i = from;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
    if (text.charAt(i) === ',') return { params, end: i + 1 };
    if (text.charAt(i) !== ';') {
      i++;
      continue;
    }
    i++;
    const eq = text.indexOf('=', i);
    const stop = [text.indexOf(';', i), text.indexOf(',', i)].filter((n) => n >= 0);
    const next = stop.length > 0 ? Math.min(...stop) : text.length;
    if (eq < 0 || eq > next) {
      i = next;
      continue;
    }
    const name = text.slice(i, eq).trim().toLowerCase();
    i = eq + 1;
    while (i < text.length && /\s/.test(text.charAt(i))) i++;
    let val: string;
    if (text.charAt(i) === '"') {
      const endQuote = text.indexOf('"', i + 1);
      const last = endQuote < 0 ? text.length : endQuote;
      val = text.slice(i + 1, last);
      i = last + 1;
    } else {
      const ends = [text.indexOf(';', i), text.indexOf(',', i)].filter((n) => n >= 0);
      const last = ends.length > 0 ? Math.min(...ends) : text.length;
      val = text.slice(i, last).trim();
      i = last;
    }
    if (!params.has(name)) params.set(name, val);
  }
  return { params, end: text.length };
}
