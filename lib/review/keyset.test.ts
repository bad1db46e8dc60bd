import { describe, expect, it } from 'vitest';
import { findingRow } from '@/lib/test-support/finding-row';
import { decodeCursor, encodeCursor } from './cursor';
import { cursorAfter, keyset } from './keyset';

describe('keyset', () => {
  it('reads the valued rows, then the null block, in both directions', () => {
    for (const [sort, op, dir] of [
      ['inlinks', '>', 'ASC'],
      ['-inlinks', '<', 'DESC'],
    ] as const) {
      expect(keyset(sort, null, 3)).toEqual({
        order: `f.inlinks ${dir}, f.id ${dir}`,
        column: 'inlinks',
        segments: [
          { where: 'f.inlinks IS NOT NULL', params: [] },
          { where: 'f.inlinks IS NULL', params: [] },
        ],
      });
      expect(keyset(sort, { v: 7, id: 40 }, 3).segments).toEqual([
        { where: `f.inlinks IS NOT NULL AND (f.inlinks, f.id) ${op} ($3::int, $4)`, params: [7, 40] },
        { where: 'f.inlinks IS NULL', params: [] },
      ]);
      // A cursor in the null block continues there only.
      expect(keyset(sort, { v: null, id: 40 }, 3).segments).toEqual([
        { where: `f.inlinks IS NULL AND f.id ${op} $3`, params: [40] },
      ]);
    }
  });

  it('has one segment for a column that is never null, and for id', () => {
    expect(keyset('-reason', { v: 'http_404', id: 9 }, 5).segments).toEqual([
      { where: 'true AND (f.reason, f.id) < ($5::text, $6)', params: ['http_404', 9] },
    ]);
    expect(keyset('id', { id: 9 }, 2)).toEqual({
      order: 'f.id ASC',
      column: null,
      segments: [{ where: 'f.id > $2', params: [9] }],
    });
  });

  it('continues after a row with its sort value, timestamps as ISO text', () => {
    const row = findingRow({ id: 5, status: 404, lastmod: new Date('2026-01-02T03:04:05Z') });
    expect(cursorAfter('-status', row)).toEqual({ v: 404, id: 5 });
    expect(cursorAfter('lastmod', row)).toEqual({ v: '2026-01-02T03:04:05.000Z', id: 5 });
    expect(cursorAfter('depth', row)).toEqual({ v: null, id: 5 });
    expect(cursorAfter('id', row)).toEqual({ id: 5 });
  });
});

describe('decodeCursor', () => {
  it('takes a cursor whose value fits the sort', () => {
    for (const [sort, v] of [
      ['status', 404],
      ['-depth', null],
      ['url', 'https://x/a'],
      ['-lastmod', '2026-01-02T03:04:05.000Z'],
      ['decision', 'pending'],
    ] as const) {
      expect(decodeCursor(encodeCursor({ v, id: 3 }), sort)).toEqual({ v, id: 3 });
    }
    expect(decodeCursor(encodeCursor({ id: 3 }), 'id')).toEqual({ id: 3 });
  });

  it.each([
    ['status', { v: '404', id: 3 }],
    ['status', { v: 1.5, id: 3 }],
    ['url', { v: null, id: 3 }],
    ['reason', { id: 3 }],
    ['lastmod', { v: 'yesterday', id: 3 }],
    ['id', { v: 1, id: 3 }],
    ['inlinks', { v: 1, id: -1 }],
    // Finding ids and the int sort columns are int4: anything past it would fail the cast (a 500).
    ['id', { id: 2 ** 31 }],
    ['id', { id: 0 }],
    ['status', { v: 2 ** 31, id: 3 }],
    ['depth', { v: -(2 ** 31) - 1, id: 3 }],
    // Dates Date.parse takes and Postgres does not (or reads otherwise): only encodeCursor's own form.
    ['lastmod', { v: '1', id: 3 }],
    ['lastmod', { v: '2026-02-31T00:00:00.000Z', id: 3 }],
    ['lastmod', { v: 'Tue, 01 Dec 2026 10:00:00 GMT', id: 3 }],
    // Text Postgres cannot store.
    ['url', { v: 'https://x/\u0000', id: 3 }],
    ['url', { v: 'https://x/\ud800', id: 3 }],
    ['url', { v: 'https://x/', id: 3, extra: 1 }],
  ] as const)('refuses a %s cursor %j', (sort, cursor) => {
    expect(() => decodeCursor(encodeCursor(cursor as never), sort)).toThrow(
      /cursor is not valid for this sort/,
    );
  });

  it('refuses text that is no cursor', () => {
    expect(() => decodeCursor('%%%', 'id')).toThrow(/cursor is not valid/);
    expect(() => decodeCursor(Buffer.from('null').toString('base64url'), 'id')).toThrow(/not valid/);
    expect(() => decodeCursor(Buffer.from('[1]').toString('base64url'), 'id')).toThrow(/not valid/);
    // Buffer's decoder skips characters outside the alphabet; a cursor with them is not ours.
    expect(() => decodeCursor(`${encodeCursor({ id: 3 })}$`, 'id')).toThrow(/not valid/);
  });
});
