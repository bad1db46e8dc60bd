// Reads single values of a crawl export (CSV cells or JSON values) into CrawlRow types. Shared by every
// format so that "200", 200 and " 200 " mean the same thing everywhere.

/** A value that is present but unreadable; `reason` goes into the rejection list or a warning. */
export class Invalid {
  constructor(readonly reason: string) {}
}

const YES = new Set(['true', 'yes', 'y', '1']);
const NO = new Set(['false', 'no', 'n', '0']);

/** HTTP status: 0 (no response) or 100–999; null when absent. */
export function readStatus(value: unknown): number | null | Invalid {
  if (typeof value === 'number') {
    return isStatus(value) ? value : new Invalid(`status ${show(value)} is not an HTTP status code`);
  }
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return new Invalid(`status ${show(value)} is not a number`);
  const text = value.trim();
  if (text === '') return null;
  if (!isDigits(text)) {
    const number = Number(text);
    return new Invalid(
      Number.isFinite(number)
        ? `status ${show(value)} is not an HTTP status code`
        : `status ${show(value)} is not a number`,
    );
  }
  const status = Number(text);
  return isStatus(status) ? status : new Invalid(`status ${show(value)} is not an HTTP status code`);
}

function isStatus(value: number): boolean {
  return Number.isInteger(value) && (value === 0 || (value >= 100 && value <= 999));
}

/** Yes/no values, including Screaming Frog's "Indexable"/"Non-Indexable"; null when absent. */
export function readBoolean(value: unknown, field: string): boolean | null | Invalid {
  if (typeof value === 'boolean') return value;
  if (value === undefined || value === null) return null;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return new Invalid(`${field} ${show(value)} is not true or false`);
  const word = value.trim().toLowerCase();
  if (word === '') return null;
  if (YES.has(word) || word === 'indexable') return true;
  if (NO.has(word) || word === 'non-indexable' || word === 'not indexable') return false;
  return new Invalid(`${field} ${show(value)} is not true or false`);
}

/** True for a noindex directive (meta robots, X-Robots-Tag, SF "Indexability Status") or a yes value. */
export function hasNoindex(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value !== 'string' || value === '') return false;
  const lower = value.toLowerCase();
  if (lower.includes('noindex')) return true;
  if (YES.has(lower.trim())) return true;
  if (!lower.includes('none')) return false;
  // `none` means "noindex, nofollow"; a token may carry a user-agent prefix such as `googlebot: none`.
  for (const token of lower.split(',')) {
    if (token.slice(token.lastIndexOf(':') + 1).trim() === 'none') return true;
  }
  return false;
}

/** True for SF's "Blocked by robots.txt" status texts or a yes value. */
export function isBlockedByRobots(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value !== 'string' || value === '') return false;
  const lower = value.trim().toLowerCase();
  return lower.includes('blocked by robots') || YES.has(lower);
}

/** True for SF's "Canonicalised" indexability status texts or a yes value. */
export function isCanonicalised(value: unknown): boolean {
  if (value === true) return true;
  if (typeof value !== 'string' || value === '') return false;
  const lower = value.trim().toLowerCase();
  return lower.includes('canonicalised') || lower.includes('canonicalized') || YES.has(lower);
}

/** ISO-like timestamps (no zone = UTC, as Screaming Frog writes them), HTTP dates, epoch s/ms. */
export function readTimestamp(value: unknown): Date | null | Invalid {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return fromEpoch(value, value);
  if (typeof value !== 'string') return new Invalid(`time ${show(value)} is not a date`);
  const text = value.trim();
  if (text === '') return null;
  if (isDigits(text)) return fromEpoch(Number(text), value);
  const millis = parseIsoLike(text);
  if (millis !== null) return new Date(millis);
  // HTTP dates ("Wed, 19 Apr 2023 02:39:50 GMT"); other free text would be read in local time, so refuse it.
  if (/\b(GMT|UTC)\b/i.test(text)) {
    const date = new Date(text);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Invalid(`time ${show(value)} is not a date`);
}

/** `YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][Z|±HH:MM|±HHMM]` by position: no regex, no string building, and
 * calendar-checked (Date itself rolls 2026-02-31 over into March). Runs once per crawl row. */
function parseIsoLike(text: string): number | null {
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || text[4] !== '-' || text[7] !== '-') return null;
  if (day > daysInMonth(year, month)) return null;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let millis = 0;
  let at = 10;
  const separator = text[10];
  if (separator === 'T' || separator === 't' || separator === ' ') {
    hour = digitsAt(text, 11, 2);
    minute = digitsAt(text, 14, 2);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || text[13] !== ':') return null;
    at = 16;
    if (text[16] === ':') {
      second = digitsAt(text, 17, 2);
      if (second < 0 || second > 59) return null;
      at = 19;
      if (text[19] === '.' || text[19] === ',') {
        let end = 20;
        while (end < text.length && isDigitCode(text.charCodeAt(end))) end++;
        if (end === 20) return null;
        millis = Math.floor(Number(`0.${text.slice(20, end)}`) * 1000);
        at = end;
      }
    }
  }
  const offset = zoneOffsetMinutes(text, at);
  if (offset === null) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Minutes east of UTC for the zone suffix starting at `at`; no suffix means UTC. */
function zoneOffsetMinutes(text: string, at: number): number | null {
  let start = at;
  while (text[start] === ' ') start++;
  const rest = text.length - start;
  if (rest === 0) return 0;
  const sign = text[start];
  if (rest === 1 && (sign === 'Z' || sign === 'z')) return 0;
  if (sign !== '+' && sign !== '-') return null;
  const hours = digitsAt(text, start + 1, 2);
  const hasColon = text[start + 3] === ':';
  const minutes = rest === 3 ? 0 : digitsAt(text, start + (hasColon ? 4 : 3), 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return null;
  if (rest !== 3 && rest !== (hasColon ? 6 : 5)) return null;
  return (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The number written with exactly `count` digits at `at`, or -1. */
function digitsAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let number = 0;
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigitCode(code)) return -1;
    number = number * 10 + code - 48;
  }
  return number;
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

function fromEpoch(number: number, original: unknown): Date | Invalid {
  // Below 1e11 the number reads as seconds (until year 5138), above as milliseconds (from 1973).
  const date = new Date(number < 1e11 ? number * 1000 : number);
  return Number.isNaN(date.getTime()) ? new Invalid(`time ${show(original)} is not a date`) : date;
}

/** Non-negative integer; null when absent. */
/** A count that must be a whole number (depth, inlinks); empty means not said. */
export function readWholeNumber(value: unknown, what: string): number | null | Invalid {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0
      ? value
      : new Invalid(`${what} ${show(value)} is not a whole number`);
  }
  if (typeof value !== 'string') return new Invalid(`${what} ${show(value)} is not a whole number`);
  const text = value.trim();
  if (text === '') return null;
  return isDigits(text) ? Number(text) : new Invalid(`${what} ${show(value)} is not a whole number`);
}

export function readDepth(value: unknown): number | null | Invalid {
  return readWholeNumber(value, 'depth');
}

/** The page URL itself: must be absolute http(s); full parsing happens once, in lib/urls at ingest. */
/** The sitemap side's default (SITEMAP_MAX_LOC_CHARS): a longer URL is that row's error, never stored. */
export const DEFAULT_MAX_URL_CHARS = 2048;

function tooLong(field: string, text: string, maxChars: number): Invalid {
  return new Invalid(`${field} ${show(text)} is longer than ${maxChars.toLocaleString('en-US')} characters`);
}

export function readPageUrl(value: unknown, maxChars = DEFAULT_MAX_URL_CHARS): string | Invalid {
  if (value === undefined || value === null) return new Invalid('missing url');
  if (typeof value !== 'string') return new Invalid(`url ${show(value)} is not text`);
  const text = value.trim();
  if (text === '') return new Invalid('missing url');
  if (text.length > maxChars) return tooLong('url', text, maxChars);
  return hasHttpScheme(text) ? text : new Invalid(`url ${show(value)} is not an absolute http(s) URL`);
}

/** A URL found on a page (canonical, redirect target): relative values are resolved against the page. */
export function readLinkedUrl(
  value: unknown,
  pageUrl: string,
  field: string,
  maxChars = DEFAULT_MAX_URL_CHARS,
): string | null | Invalid {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return new Invalid(`${field} ${show(value)} is not text`);
  const text = value.trim();
  if (text === '') return null;
  if (text.length > maxChars) return tooLong(field, text, maxChars);
  if (hasHttpScheme(text)) return text;
  try {
    const resolved = new URL(text, pageUrl);
    if (resolved.protocol === 'http:' || resolved.protocol === 'https:') return resolved.href;
  } catch {
    // falls through to the Invalid below
  }
  return new Invalid(`${field} ${show(value)} is not a URL`);
}

export function readText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

function hasHttpScheme(text: string): boolean {
  const start = text.slice(0, 8).toLowerCase();
  return start.startsWith('https://') || start.startsWith('http://');
}

function isDigits(text: string): boolean {
  if (text.length === 0 || text.length > 15) return false;
  for (let i = 0; i < text.length; i++) {
    if (!isDigitCode(text.charCodeAt(i))) return false;
  }
  return true;
}

/** Quotes a value for a user-facing reason, cut short so a huge cell cannot bloat the report. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return typeof value === 'string' ? `'${short}'` : short;
}
