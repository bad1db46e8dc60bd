// Small pure checks shared by the sitemap, text and robots readers.

function startsWithHttpScheme(value: string): boolean {
  const c4 = value.charCodeAt(4);
  return (
    value.length > 8 &&
    (value.charCodeAt(0) | 0x20) === 104 /* h */ &&
    (value.charCodeAt(1) | 0x20) === 116 /* t */ &&
    (value.charCodeAt(2) | 0x20) === 116 /* t */ &&
    (value.charCodeAt(3) | 0x20) === 112 /* p */ &&
    (c4 === 58 /* : */ || ((c4 | 0x20) === 115 /* s */ && value.charCodeAt(5) === 58))
  );
}

/**
 * True for an absolute http(s) URL that a browser would fetch (input already trimmed). Stray tabs
 * inside pass, as in WHATWG URL parsing: real text sitemaps contain them and crawlers follow them.
 */
export function isAbsoluteHttpUrl(value: string): boolean {
  if (!startsWithHttpScheme(value) || !URL.canParse(value)) return false;
  // "http:example.com" and "http:/x" parse, but nobody means them as a sitemap URL.
  const slashes = value.indexOf('//');
  return slashes === 5 || slashes === 6;
}

/** Counts line breaks the way XML does: CRLF, CR and LF each end one line. */
export function countLineBreaks(text: string, afterCarriageReturn: boolean): number {
  let count = 0;
  let previousCr = afterCarriageReturn;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (!previousCr) count++;
      previousCr = false;
    } else if (c === 13) {
      count++;
      previousCr = true;
    } else {
      previousCr = false;
    }
  }
  return count;
}
