import { describe, expect, it } from 'vitest';
import { dateOrderOf, Invalid, readCount, readDate, readDecimal, readPercent, readText } from './values';

describe('readCount', () => {
  it.each([
    ['46362', 46362],
    ['46,362', 46362],
    ['1,000,000', 1_000_000],
    ['46.362', 46362],
    ['46 362', 46362],
    ['46\u202f362', 46362],
    [' 0 ', 0],
  ])('%s → %i', (raw, value) => expect(readCount(raw)).toBe(value));

  it.each(['', 'N/A', 'n/a', '—', '-'])('%j is no value', (raw) => expect(readCount(raw)).toBeNull());

  it.each(['1.5', '12,34', '1,234.5', 'ten', '-3', '1,234.567', '1,234 567'])('refuses %j', (raw) => {
    expect(() => readCount(raw)).toThrow(Invalid);
    expect(() => readCount(raw)).toThrow(/whole number/);
  });
});

describe('readDate', () => {
  it.each([
    ['2025-01-31', '2025-01-31'],
    ['2025-01-31T10:00:00Z', '2025-01-31'],
    ['2025-01-31 10:00', '2025-01-31'],
    ['Jan 31, 2025', '2025-01-31'],
    ['January 31, 2025', '2025-01-31'],
    ['Sept 5, 2025', '2025-09-05'],
    ['31 Jan 2025', '2025-01-31'],
    ['31.01.2025', '2025-01-31'],
    ['31/01/2025', '2025-01-31'],
  ])('%s → %s', (raw, iso) => expect(readDate(raw)).toBe(iso));

  it('reads slashed dates in the order it is given', () => {
    expect(readDate('02/03/2025', 'day-first')).toBe('2025-03-02');
    expect(readDate('02/03/2025', 'month-first')).toBe('2025-02-03');
  });

  it('refuses what is not a calendar date, saying which forms it reads', () => {
    expect(() => readDate('2025-02-30')).toThrow("'2025-02-30' is not a calendar date");
    expect(() => readDate('2025-13-01')).toThrow("'2025-13-01' is not a calendar date");
    expect(() => readDate('2025-04-31')).toThrow("'2025-04-31' is not a calendar date");
    expect(() => readDate('2025-02-29')).toThrow("'2025-02-29' is not a calendar date");
    expect(readDate('2024-02-29')).toBe('2024-02-29');
    expect(readDate('2000-02-29')).toBe('2000-02-29');
    expect(() => readDate('1900-02-29')).toThrow(/not a calendar date/);
    expect(() => readDate('Foo 3, 2025')).toThrow(/expected a date \(2025-01-31, Jan 31, 2025/);
    expect(() => readDate('yesterday')).toThrow(/found 'yesterday'/);
    expect(readDate('N/A')).toBeNull();
  });
});

describe('dateOrderOf', () => {
  it('decides from a part over 12, and says when it had to assume', () => {
    expect(dateOrderOf(['2025-01-31'])).toEqual({ order: 'day-first', note: null });
    expect(dateOrderOf(['01/02/2025', '31/01/2025'])).toEqual({ order: 'day-first', note: null });
    expect(dateOrderOf(['01/02/2025', '01/31/2025']).order).toBe('month-first');
    expect(dateOrderOf(['01/02/2025']).note).toMatch(/either way; read day first/);
    expect(() => dateOrderOf(['31/01/2025', '01/31/2025'])).toThrow(/mix day-first and month-first/);
  });
});

describe('numbers and text', () => {
  it('reads percentages as fractions and decimals with either separator', () => {
    expect(readPercent('6.56%')).toBeCloseTo(0.0656);
    expect(readPercent('6,56 %')).toBeCloseTo(0.0656);
    expect(readPercent('0%')).toBe(0);
    expect(() => readPercent('6.56')).toThrow(/percentage/);
    expect(readDecimal('5.62')).toBe(5.62);
    expect(readDecimal('5,62')).toBe(5.62);
    expect(readDecimal('17')).toBe(17);
    expect(() => readDecimal('five')).toThrow(/a number/);
  });

  it('keeps text as written, curly quotes included, and reads N/A as no value', () => {
    expect(readText(' Excluded by ‘noindex’ tag ')).toBe('Excluded by ‘noindex’ tag');
    expect(readText('N/A')).toBeNull();
  });
});
