// Cell values as Search Console writes them: counts with thousands separators, "N/A", percentages and
// dates in the few forms its UI languages use. Each reader returns null for "no value" and throws
// Invalid (with what was expected) for a value that cannot be one.

export class Invalid extends Error {}

/** Cells that mean "no value". */
const NO_VALUE = new Set(['', 'n/a', 'na', '-', '—', '–']);

function isNoValue(raw: string): boolean {
  return NO_VALUE.has(raw.trim().toLowerCase());
}

export function readText(raw: string): string | null {
  const text = raw.trim();
  return isNoValue(text) ? null : text;
}

// "46362", "46,362", "46.362" (German), "46 362" / "46 362" (French). A count is whole, so a dot or
// comma followed by exactly three digits is always a thousands separator, never a decimal point.
const COUNT = /^\d{1,3}(?:([,.'\u00a0\u202f ])\d{3}(?:\1\d{3})*)?$|^\d+$/;

export function readCount(raw: string): number | null {
  const text = raw.trim();
  if (isNoValue(text)) return null;
  if (!COUNT.test(text)) throw new Invalid(`expected a whole number of pages (like 1,234); found '${text}'`);
  const value = Number(text.replace(/\D/g, ''));
  if (!Number.isSafeInteger(value)) throw new Invalid(`the count '${text}' is too large`);
  return value;
}

/** "5.62" or "5,62" (a decimal comma, as German and French exports write it). */
export function readDecimal(raw: string): number | null {
  const text = raw.trim();
  if (isNoValue(text)) return null;
  if (!/^-?\d+(?:[.,]\d+)?$/.test(text)) throw new Invalid(`expected a number (like 5.62); found '${text}'`);
  return Number(text.replace(',', '.'));
}

/** "6.56%" → 0.0656; "6,56 %" too. */
export function readPercent(raw: string): number | null {
  const text = raw.trim();
  if (isNoValue(text)) return null;
  const match = /^(\d+(?:[.,]\d+)?)\s*%$/.exec(text);
  if (!match?.[1]) throw new Invalid(`expected a percentage (like 6.56%); found '${text}'`);
  // Rounded, so that 6.56% is 0.0656 and not 0.06559999999999999.
  return Number((Number(match[1].replace(',', '.')) / 100).toFixed(10));
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const DATE_FORMS = '2025-01-31, Jan 31, 2025, 31 Jan 2025, 31.01.2025 or 31/01/2025';

/** Which way slashed dates run; a file decides once for all its dates (see dateOrderOf). */
export type SlashOrder = 'day-first' | 'month-first';

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isoDate(year: number, month: number, day: number, text: string): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new Invalid(`'${text}' is not a calendar date`);
  }
  return date.toISOString().slice(0, 10);
}

const SLASHED = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * Reads one date. Search Console writes `2025-01-31` in its CSV exports (every fixture does); the
 * other forms are what its UI shows and what a spreadsheet round trip leaves. A time after the date
 * (`2025-01-31T10:00:00Z`, `2025-01-31 10:00`) is dropped: the exports are daily.
 */
export function readDate(raw: string, slashOrder: SlashOrder = 'day-first'): string | null {
  const text = raw.trim();
  if (isNoValue(text)) return null;
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (m) {
    // Search Console's own form, on every row: checked without building a Date (that took a third of
    // the time of reading a large table).
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month)) return text.slice(0, 10);
    throw new Invalid(`'${text}' is not a calendar date`);
  }
  m = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(text);
  if (m && MONTHS.includes((m[1] as string).toLowerCase())) {
    return isoDate(Number(m[3]), MONTHS.indexOf((m[1] as string).toLowerCase()) + 1, Number(m[2]), text);
  }
  m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]*\.?,? (\d{4})$/.exec(text);
  if (m && MONTHS.includes((m[2] as string).toLowerCase())) {
    return isoDate(Number(m[3]), MONTHS.indexOf((m[2] as string).toLowerCase()) + 1, Number(m[1]), text);
  }
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(text);
  if (m) return isoDate(Number(m[3]), Number(m[2]), Number(m[1]), text);
  m = SLASHED.exec(text);
  if (m) {
    const [first, second] = [Number(m[1]), Number(m[2])];
    return slashOrder === 'day-first'
      ? isoDate(Number(m[3]), second, first, text)
      : isoDate(Number(m[3]), first, second, text);
  }
  throw new Invalid(`expected a date (${DATE_FORMS}); found '${text}'`);
}

/**
 * Slashed dates are day-first in most locales and month-first in the US; a file that has any first
 * part over 12 is day-first, any second part over 12 month-first. A file where every slashed date
 * could be either is read day-first, and says so in a note (null when there was nothing to decide).
 */
export function dateOrderOf(values: Iterable<string>): { order: SlashOrder; note: string | null } {
  let dayFirst = false;
  let monthFirst = false;
  let slashed = false;
  for (const value of values) {
    const m = SLASHED.exec(value.trim());
    if (!m) continue;
    slashed = true;
    if (Number(m[1]) > 12) dayFirst = true;
    if (Number(m[2]) > 12) monthFirst = true;
  }
  if (dayFirst && monthFirst) throw new Invalid('the slashed dates mix day-first and month-first order');
  if (monthFirst) return { order: 'month-first', note: 'slashed dates read month first (MM/DD/YYYY)' };
  if (dayFirst || !slashed) return { order: 'day-first', note: null };
  return {
    order: 'day-first',
    note: 'slashed dates could be read either way; read day first (DD/MM/YYYY)',
  };
}
