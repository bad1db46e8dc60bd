// Date parsers for <lastmod> (W3C Datetime) and RSS <pubDate> (RFC 822).
// Hand-rolled over char codes: they run once per entry on the ingest hot path, and a regex per
// entry showed up in profiles. Anything that does not parse cleanly returns null, never throws.

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Reads `count` ASCII digits at `start`; -1 if any is missing or not a digit. */
function readDigits(s: string, start: number, count: number): number {
  if (start + count > s.length) return -1;
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

function isValidDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  if (month === 2 && day === 29) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Epoch milliseconds of a UTC civil time; plain arithmetic is several times cheaper than Date.UTC. */
function utc(year: number, month: number, day: number, h: number, m: number, s: number, ms: number): number {
  // Days from 1970-01-01 (proleptic Gregorian), counting years from March so leap days come last.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  const days = era * 146097 + dayOfEra - 719468;
  return days * 86_400_000 + h * 3_600_000 + m * 60_000 + s * 1000 + ms;
}

/**
 * W3C Datetime (YYYY, YYYY-MM, YYYY-MM-DD, then Thh:mm[:ss[.s]] and Z or ±hh:mm).
 * Lenient where real sitemaps commonly deviate and the meaning is unambiguous: a space instead of
 * `T`, a missing zone (taken as UTC) and `±hhmm` / `±hh` offsets. Input must already be trimmed.
 */
export function parseW3cDatetime(s: string): Date | null {
  const n = s.length;
  const year = readDigits(s, 0, 4);
  if (year < 0) return null;
  if (n === 4) return new Date(utc(year, 1, 1, 0, 0, 0, 0));
  if (s.charCodeAt(4) !== 45 /* - */) return null;
  const month = readDigits(s, 5, 2);
  if (month < 1 || month > 12) return null;
  if (n === 7) return new Date(utc(year, month, 1, 0, 0, 0, 0));
  if (s.charCodeAt(7) !== 45) return null;
  const day = readDigits(s, 8, 2);
  if (!isValidDate(year, month, day)) return null;
  if (n === 10) return new Date(utc(year, month, day, 0, 0, 0, 0));

  const sep = s.charCodeAt(10);
  if (sep !== 84 /* T */ && sep !== 116 /* t */ && sep !== 32 /* space */) return null;
  const hour = readDigits(s, 11, 2);
  if (hour < 0 || hour > 23 || s.charCodeAt(13) !== 58 /* : */) return null;
  const minute = readDigits(s, 14, 2);
  if (minute < 0 || minute > 59) return null;
  let i = 16;
  let second = 0;
  let ms = 0;
  if (s.charCodeAt(i) === 58) {
    second = readDigits(s, i + 1, 2);
    if (second < 0 || second > 60) return null;
    i += 3;
    const dot = s.charCodeAt(i);
    if (dot === 46 /* . */ || dot === 44 /* , */) {
      i++;
      const fracStart = i;
      let scale = 100;
      for (; i < n; i++) {
        const d = s.charCodeAt(i) - 48;
        if (d < 0 || d > 9) break;
        ms += d * scale;
        scale /= 10;
      }
      if (i === fracStart) return null;
      ms = Math.floor(ms);
    }
  }

  let offsetMinutes = 0;
  if (i < n) {
    const z = s.charCodeAt(i);
    if (z === 90 /* Z */ || z === 122 /* z */) {
      if (i + 1 !== n) return null;
    } else if (z === 43 /* + */ || z === 45 /* - */) {
      const oh = readDigits(s, i + 1, 2);
      if (oh < 0 || oh > 23) return null;
      let end = i + 3;
      let om = 0;
      if (end < n) {
        if (s.charCodeAt(end) === 58) end++;
        om = readDigits(s, end, 2);
        if (om < 0 || om > 59) return null;
        end += 2;
      }
      if (end !== n) return null;
      offsetMinutes = (z === 45 ? -1 : 1) * (oh * 60 + om);
    } else {
      return null;
    }
  }
  return new Date(utc(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const ZONES: Record<string, number> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

function parseZone(zone: string): number | null {
  const first = zone.charCodeAt(0);
  if (first === 43 || first === 45) {
    if (zone.length !== 5) return null;
    const hh = readDigits(zone, 1, 2);
    const mm = readDigits(zone, 3, 2);
    if (hh < 0 || mm < 0 || mm > 59) return null;
    return (first === 45 ? -1 : 1) * (hh * 60 + mm);
  }
  return ZONES[zone.toLowerCase()] ?? null;
}

/**
 * RFC 822 / RFC 2822 dates as used by RSS <pubDate>: `[Wkd,] DD Mon YY[YY] hh:mm[:ss] zone`.
 * The zone is required: without one the instant is unknown, so the date is rejected (null).
 * Two-digit years follow RFC 2822: 00-49 → 20xx, 50-99 → 19xx.
 */
export function parseRfc822Date(raw: string): Date | null {
  const parts = raw.split(/[\s,]+/).filter((p) => p.length > 0);
  if (parts.length > 0 && readDigits(parts[0] ?? '', 0, 1) < 0) parts.shift(); // weekday
  if (parts.length !== 5) return null;
  const [dayText, monthText, yearText, timeText, zoneText] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];

  const day = dayText.length <= 2 ? readDigits(dayText, 0, dayText.length) : -1;
  const month = MONTHS.indexOf(monthText.slice(0, 3).toLowerCase()) + 1;
  let year = yearText.length === 4 || yearText.length === 2 ? readDigits(yearText, 0, yearText.length) : -1;
  if (year < 0 || month === 0 || !isValidDate(year < 100 ? 2000 : year, month, day)) return null;
  if (yearText.length === 2) year += year < 50 ? 2000 : 1900;
  if (!isValidDate(year, month, day)) return null;

  const timeParts = timeText.split(':');
  if (timeParts.length < 2 || timeParts.length > 3) return null;
  const [h = '', m = '', sec = '00'] = timeParts;
  const hour = h.length === 2 ? readDigits(h, 0, 2) : -1;
  const minute = m.length === 2 ? readDigits(m, 0, 2) : -1;
  const second = sec.length === 2 ? readDigits(sec, 0, 2) : -1;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return null;

  const offset = parseZone(zoneText);
  if (offset === null) return null;
  return new Date(utc(year, month, day, hour, minute, second, 0) - offset * 60_000);
}
