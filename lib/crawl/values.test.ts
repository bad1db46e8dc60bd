import { describe, expect, it } from 'vitest';
import {
  hasNoindex,
  Invalid,
  isBlockedByRobots,
  readBoolean,
  readDepth,
  readLinkedUrl,
  readPageUrl,
  readStatus,
  readTimestamp,
} from './values';

const reasonOf = (value: unknown) => (value instanceof Invalid ? value.reason : value);

describe('readStatus', () => {
  it.each([
    [200, 200],
    ['200', 200],
    [' 404 ', 404],
    ['0', 0],
    [999, 999],
    ['', null],
    [null, null],
    [undefined, null],
    ['abc', "status 'abc' is not a number"],
    ['OK', "status 'OK' is not a number"],
    ['200.5', "status '200.5' is not an HTTP status code"],
    [42, 'status 42 is not an HTTP status code'],
    [-1, 'status -1 is not an HTTP status code'],
    ['1000', "status '1000' is not an HTTP status code"],
    [true, 'status true is not a number'],
  ])('%j → %j', (value, expected) => {
    expect(reasonOf(readStatus(value))).toEqual(expected);
  });
});

describe('readBoolean', () => {
  it.each([
    [true, true],
    ['false', false],
    ['TRUE', true],
    ['Indexable', true],
    ['Non-Indexable', false],
    ['yes', true],
    ['0', false],
    [1, true],
    ['', null],
    [null, null],
    ['maybe', "indexable 'maybe' is not true or false"],
    [2, 'indexable 2 is not true or false'],
  ])('%j → %j', (value, expected) => {
    expect(reasonOf(readBoolean(value, 'indexable'))).toEqual(expected);
  });
});

describe('hasNoindex / isBlockedByRobots', () => {
  it.each([
    ['noindex, nofollow', true],
    ['NOINDEX', true],
    ['none', true],
    ['googlebot: none', true],
    ['index, follow', false],
    ['noimageindex', false],
    ['nosnippet, none-of-your-business', false],
    ['Canonicalised', false],
    ['true', true],
    [true, true],
    [false, false],
    ['', false],
    [undefined, false],
  ])('hasNoindex(%j) → %j', (value, expected) => {
    expect(hasNoindex(value)).toBe(expected);
  });

  it.each([
    ['Blocked by robots.txt', true],
    ['blocked by robots.txt', true],
    ['OK', false],
    ['Blocked Resource', false],
    [true, true],
    ['yes', true],
    ['', false],
  ])('isBlockedByRobots(%j) → %j', (value, expected) => {
    expect(isBlockedByRobots(value)).toBe(expected);
  });
});

describe('readTimestamp', () => {
  it.each([
    ['2026-05-28 12:57:52', '2026-05-28T12:57:52.000Z'],
    ['2026-05-28T12:57:52Z', '2026-05-28T12:57:52.000Z'],
    ['2026-05-28T12:57:52.123456+05:30', '2026-05-28T07:27:52.123Z'],
    ['2026-05-28T12:57:52-0700', '2026-05-28T19:57:52.000Z'],
    ['2026-05-28T12:57', '2026-05-28T12:57:00.000Z'],
    ['2026-05-28', '2026-05-28T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['Wed, 19 Apr 2023 02:39:50 GMT', '2023-04-19T02:39:50.000Z'],
    [1706266259000, '2024-01-26T10:50:59.000Z'],
    [1706266259, '2024-01-26T10:50:59.000Z'],
    ['1706266259', '2024-01-26T10:50:59.000Z'],
  ])('%j → %s', (value, expected) => {
    expect((readTimestamp(value) as Date).toISOString()).toBe(expected);
  });

  it.each([
    ['2026-02-31 00:00:00'],
    ['2025-02-29'],
    ['2026-13-01'],
    ['2026-05-28T24:00:00Z'],
    ['2026-05-28T12:57:52+5'],
    ['28/05/2026'],
    ['yesterday'],
    [{}],
  ])('%j is not a date', (value) => {
    expect(readTimestamp(value)).toBeInstanceOf(Invalid);
  });

  it('treats empty values as absent', () => {
    expect(readTimestamp('')).toBeNull();
    expect(readTimestamp(null)).toBeNull();
  });
});

describe('readDepth', () => {
  it.each([
    [0, 0],
    ['3', 3],
    ['', null],
    [-1, 'depth -1 is not a whole number'],
    ['1.5', "depth '1.5' is not a whole number"],
  ])('%j → %j', (value, expected) => {
    expect(reasonOf(readDepth(value))).toEqual(expected);
  });
});

describe('readPageUrl / readLinkedUrl', () => {
  it.each([
    ['https://a.com/x', 'https://a.com/x'],
    ['  HTTP://A.COM/x  ', 'HTTP://A.COM/x'],
    ['', 'missing url'],
    [undefined, 'missing url'],
    [42, 'url 42 is not text'],
    ['www.a.com/x', "url 'www.a.com/x' is not an absolute http(s) URL"],
    ['mailto:a@b.c', "url 'mailto:a@b.c' is not an absolute http(s) URL"],
  ])('readPageUrl(%j) → %j', (value, expected) => {
    expect(reasonOf(readPageUrl(value))).toEqual(expected);
  });

  it.each([
    ['https://b.com/', 'https://b.com/'],
    ['/other/', 'https://a.com/other/'],
    ['../up', 'https://a.com/up'],
    ['//cdn.a.com/x', 'https://cdn.a.com/x'],
    ['', null],
    ['mailto:a@b.c', "canonical 'mailto:a@b.c' is not a URL"],
  ])('readLinkedUrl(%j) against https://a.com/dir/page → %j', (value, expected) => {
    expect(reasonOf(readLinkedUrl(value, 'https://a.com/dir/page', 'canonical'))).toEqual(expected);
  });

  it('cuts long values short in reasons', () => {
    const reason = reasonOf(readPageUrl('x'.repeat(500))) as string;
    expect(reason.length).toBeLessThan(140);
    expect(reason).toContain('...');
  });
});
