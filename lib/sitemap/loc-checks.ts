// Per-entry checks on a declared location, and the limits the readers enforce. They run once per
// entry of files with millions of URLs, so the common case (an http(s) URL) costs a few character
// comparisons; only the rare other cases pay for more.

export interface ReaderLimits {
  /** Longest accepted location (SITEMAP_MAX_LOC_CHARS); longer ones are that entry's error. */
  maxLocChars: number;
  /** Deepest element nesting accepted; deeper fails the file ('xml_too_deep'). */
  maxDepth: number;
}

export const DEFAULT_MAX_LOC_CHARS = 2048;
/** SITEMAP_MAX_LOC_CHARS may not exceed this. */
export const MAX_LOC_CHARS_CEILING = 64 * 1024;
export const DEFAULT_MAX_XML_DEPTH = 100;
/** Whitespace after a value that pretty-printed files put before `</loc>`, kept beyond the limit. */
export const TRAILING_SPACE_SLACK = 1024;

function isHttpScheme(value: string): boolean {
  const c4 = value.charCodeAt(4);
  return (
    (value.charCodeAt(0) | 0x20) === 104 /* h */ &&
    (value.charCodeAt(1) | 0x20) === 116 /* t */ &&
    (value.charCodeAt(2) | 0x20) === 116 /* t */ &&
    (value.charCodeAt(3) | 0x20) === 112 /* p */ &&
    (c4 === 58 /* : */ || ((c4 | 0x20) === 115 /* s */ && value.charCodeAt(5) === 58))
  );
}

// Browsers drop ASCII tab and newline anywhere in a URL and leading controls and spaces, so
// "java\tscript:" is a javascript: link; the scheme is read the same way here.
const IGNORED_BY_URL_PARSERS = /[\t\n\r]/g;
const SCHEME = /^[\0- ]*([a-z][a-z0-9+.-]*):/i;

/** The scheme of a location the way a browser would read it, lowercased; null for a relative one. */
export function schemeOf(loc: string): string | null {
  const match = SCHEME.exec(loc.replace(IGNORED_BY_URL_PARSERS, ''));
  return match ? (match[1] as string).toLowerCase() : null;
}

/**
 * 'non_http_loc' for a location with a scheme other than http(s) (javascript:, data:, mailto:, …):
 * it is never stored, so nothing fetches or links it. Relative locations are left to later stages.
 */
export function locProblem(loc: string): 'non_http_loc' | null {
  if (isHttpScheme(loc)) return null;
  const scheme = schemeOf(loc);
  return scheme === null || scheme === 'http' || scheme === 'https' ? null : 'non_http_loc';
}
