import { describe, expect, it } from 'vitest';
import { decodeDiffCursor, encodeDiffCursor } from './cursor';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('diff cursors', () => {
  it('round-trips a row place, and is absent without a cursor', () => {
    const cursor = { type: 'moved' as const, key: 'https://a.example/ü?x=1' };
    expect(decodeDiffCursor(encodeDiffCursor(cursor), undefined)).toEqual(cursor);
    expect(decodeDiffCursor(encodeDiffCursor(cursor), 'moved')).toEqual(cursor);
    expect(decodeDiffCursor(undefined, 'moved')).toBeNull();
  });

  it.each([
    ['not base64url', '!!'],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['an array', b64(['url_added', 'k'])],
    ['an unknown type', b64({ t: 'url_gone', k: 'k' })],
    ['a number as key', b64({ t: 'url_added', k: 1 })],
    ['an extra field', b64({ t: 'url_added', k: 'k', x: 1 })],
    ['a NUL in the key', b64({ t: 'url_added', k: 'a\u0000' })],
    ['a key too long', b64({ t: 'url_added', k: 'k'.repeat(4097) })],
  ])('refuses %s with a 400', (_what, text) => {
    expect(() => decodeDiffCursor(text, undefined)).toThrow(/cursor is not valid/);
  });

  it("refuses another type's cursor when the diff is filtered to one type", () => {
    const cursor = encodeDiffCursor({ type: 'url_added', key: 'k' });
    expect(() => decodeDiffCursor(cursor, 'url_removed')).toThrow(/cursor is not valid/);
  });
});
