// What a live spot-check reads from an HTML page while it streams in: robots meta noindex, the first
// canonical in <head>, the title, and the visible text (hashed, and fingerprinted for soft-404 checks).
// htmlparser2's streaming Parser does the tokenising, so broken markup is read the way browsers forgive it.
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import { fingerprintOf } from './text-similarity';

export interface HtmlSignals {
  /** 'meta:robots' and/or 'meta:googlebot' when a robots meta says noindex or none. */
  noindexSources: string[];
  /** Absolute URL of the first <link rel="canonical"> in <head>, or null. */
  canonical: string | null;
  title: string | null;
  textHash: string;
  /** Shingle sketch of the visible text (see text-similarity.ts); null when there is no text. */
  fingerprint: string | null;
}

interface HtmlSignalReader {
  write(text: string): void;
  end(): HtmlSignals;
}

const MAX_TITLE = 500;
// Text inside these is not shown to a reader (and a template's only when cloned by script).
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'title']);
// Elements that may stand in <head>; any other one starts the body, as in a browser's parser.
export const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'script',
  'style',
  'noscript',
  'template',
]);
// Inline elements do not separate words ("foo<b>bar</b>" is one word); every other tag does.
const INLINE = new Set(
  'a abbr b bdi bdo cite code data dfn em i kbd mark q s samp small span strong sub sup time u var wbr font'.split(
    ' ',
  ),
);

/** Directives that mean "do not index" in a robots meta content or an X-Robots-Tag value. */
export function saysNoindex(directives: string): boolean {
  return directives
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .some((d) => d === 'noindex' || d === 'none');
}

/** Directives that mean "do not follow the links" in a robots meta content or an X-Robots-Tag value. */
export function saysNofollow(directives: string): boolean {
  return directives
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .some((d) => d === 'nofollow' || d === 'none');
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `pageUrl` is the final URL: relative canonicals resolve against it (or against <base href>). */
export function createHtmlSignalReader(pageUrl: string): HtmlSignalReader {
  const noindexSources = new Set<string>();
  let canonicalHref: string | null = null;
  let baseHref: string | null = null;
  let title: string | null = null;
  let titleText: string[] | null = null;
  let inHead = true;
  let hiddenDepth = 0;
  let svgDepth = 0;
  const text: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (!HEAD_ELEMENTS.has(name)) inHead = false;
        if (name === 'body') inHead = false;
        if (name === 'svg') svgDepth++;
        if (HIDDEN.has(name)) hiddenDepth++;
        else if (!INLINE.has(name)) text.push(' ');
        if (name === 'title' && title === null && titleText === null && svgDepth === 0) titleText = [];
        if (name === 'meta') {
          const who = (attrs.name ?? '').trim().toLowerCase();
          if ((who === 'robots' || who === 'googlebot') && saysNoindex(attrs.content ?? '')) {
            noindexSources.add(`meta:${who}`);
          }
        }
        if (name === 'base' && inHead && baseHref === null && attrs.href) baseHref = attrs.href;
        if (name === 'link' && inHead && canonicalHref === null && attrs.href !== undefined) {
          const rels = (attrs.rel ?? '').toLowerCase().split(/\s+/);
          if (rels.includes('canonical') && attrs.href.trim() !== '') canonicalHref = attrs.href.trim();
        }
      },
      ontext(data) {
        if (titleText !== null) titleText.push(data);
        else if (hiddenDepth === 0) text.push(data);
      },
      onclosetag(name, isImplied) {
        if (name === 'head' && !isImplied) inHead = false;
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        if (name === 'title' && titleText !== null) {
          title = collapseWhitespace(titleText.join('')).slice(0, MAX_TITLE);
          titleText = null;
        }
        if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        else if (!INLINE.has(name)) text.push(' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  return {
    write: (chunk) => parser.write(chunk),
    end() {
      parser.end();
      // A title cut off by the body cap still says what the page is called.
      if (title === null && titleText !== null)
        title = collapseWhitespace(titleText.join('')).slice(0, MAX_TITLE);
      const visible = collapseWhitespace(text.join(''));
      return {
        noindexSources: [...noindexSources],
        canonical: resolveHref(canonicalHref, baseHref, pageUrl),
        title: title === '' ? null : title,
        textHash: createHash('sha256').update(visible).digest('hex'),
        fingerprint: fingerprintOf(visible),
      };
    },
  };
}

function resolveHref(href: string | null, base: string | null, pageUrl: string): string | null {
  if (href === null) return null;
  try {
    const baseUrl = base === null ? pageUrl : new URL(base, pageUrl).href;
    const url = new URL(href, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
