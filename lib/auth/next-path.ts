// Where to go after signing in: the `next` parameter comes from the URL, so anyone can write it. Only a
// path on this origin is kept; anything a browser could read as another host falls back to `/`.
// Isomorphic and pure: the login page, the sign-in API and the form all call it.

/** The path (and query) of a page request, set by proxy.ts, so the app's layout can send people to
 * `/login?next=<where they were going>`. A client can send it too: it is only ever read through
 * safeNextPath, and only sends that client back to a page of ours. */
export const REQUEST_PATH_HEADER = 'x-sitemap-audit-path';

const BASE = 'http://next-path.invalid';
const MAX_LENGTH = 2048;
// Browsers drop tab, CR and LF anywhere in a URL and C0 controls/space at its ends, and read `\` as `/`:
// `/\evil`, `/%09/evil` and `\\evil` all name another host. A real path of ours holds none of them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\]/;
const MAX_DECODES = 5;

/** The forms a later reader could see: the string, then each percent-decoding until stable. Null when a
 * form is malformed or still changes after a few rounds (double, triple… encoding past reason). */
function decodings(raw: string): string[] | null {
  const forms = [raw];
  let current = raw;
  for (let round = 0; round < MAX_DECODES; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return forms;
    forms.push(decoded);
    current = decoded;
  }
  return null;
}

/** A form is safe when it, and its NFKC form (full-width `／`, `＼` and `．` become `/`, `\` and `.`),
 * is an absolute path that resolves to a path on our own origin. */
function isSafeForm(form: string): boolean {
  for (const candidate of new Set([form, form.normalize('NFKC')])) {
    if (FORBIDDEN.test(candidate)) return false;
    if (!candidate.startsWith('/') || candidate.startsWith('//')) return false;
    let url: URL;
    try {
      url = new URL(candidate, BASE);
    } catch {
      return false;
    }
    // `/..//evil` resolves to the path `//evil`, which a browser reads as a host once it is the target.
    if (url.origin !== BASE || url.pathname.startsWith('//')) return false;
  }
  return true;
}

/** `next` when it is a same-origin path (returned as the URL parser serialises it), else `/`. */
export function safeNextPath(next: unknown): string {
  if (typeof next !== 'string' || next === '' || next.length > MAX_LENGTH) return '/';
  const forms = decodings(next);
  if (!forms?.every(isSafeForm)) return '/';
  const url = new URL(next, BASE);
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}
