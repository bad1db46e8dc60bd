import { describe, expect, it } from 'vitest';
import { conditionalHeaders, notModifiedWithoutCopy, reusedChildren, reusedOutcome } from './conditional';
import type { PreviousCopy } from './tree-types';

const copy = (over: Partial<PreviousCopy> = {}): PreviousCopy => ({
  fileId: 7,
  auditId: '00000000-0000-4000-8000-000000000001',
  etag: '"v1"',
  lastModified: 'Sun, 01 Nov 2026 00:00:00 GMT',
  kind: 'urlset',
  entries: 3,
  children: [],
  compressedBytes: 120,
  uncompressedBytes: 400,
  contentType: 'application/xml',
  contentEncoding: null,
  gzipped: false,
  hasBom: false,
  warnings: [{ code: 'lastmod_invalid', message: 'bad lastmod', count: 1 }],
  ...over,
});

describe('conditionalHeaders', () => {
  it('sends both validators when both are stored, each alone otherwise, none without a copy', () => {
    expect(conditionalHeaders(copy())).toEqual({
      'if-none-match': '"v1"',
      'if-modified-since': 'Sun, 01 Nov 2026 00:00:00 GMT',
    });
    expect(conditionalHeaders(copy({ lastModified: null }))).toEqual({ 'if-none-match': '"v1"' });
    expect(conditionalHeaders(copy({ etag: null }))).toEqual({
      'if-modified-since': 'Sun, 01 Nov 2026 00:00:00 GMT',
    });
    expect(conditionalHeaders(copy({ etag: null, lastModified: null }))).toBeUndefined();
    expect(conditionalHeaders(undefined)).toBeUndefined();
  });
});

describe('reusedOutcome', () => {
  it("is the copy's file, answered 304, pointing at it, with the 304's new validators when it sent them", () => {
    const outcome = reusedOutcome(
      copy(),
      { finalUrl: 'https://a.example/s.xml', etag: '"v1b"', lastModified: null },
      3,
    );
    expect(outcome).toMatchObject({
      status: 'ok',
      kind: 'urlset',
      httpStatus: 304,
      entries: 3,
      partial: false,
      error: null,
      reusedFrom: 7,
      etag: '"v1b"',
      lastModified: 'Sun, 01 Nov 2026 00:00:00 GMT',
      compressedBytes: 120,
      uncompressedBytes: 400,
      contentType: 'application/xml',
      gzipped: false,
    });
    expect(outcome.warnings).toEqual(copy().warnings);
  });
});

describe('notModifiedWithoutCopy', () => {
  it('is a failed file with a clear reason, never a success', () => {
    for (const reason of ['unasked', 'vanished'] as const) {
      const outcome = notModifiedWithoutCopy(reason);
      expect(outcome).toMatchObject({ status: 'failed', httpStatus: 304, entries: 0 });
      expect(outcome.error?.code).toBe('not_modified_without_copy');
      expect(outcome.error?.message).toMatch(/^HTTP 304 Not Modified, but/);
    }
  });
});

describe('reusedChildren', () => {
  it("lists an index's children in order, at most `max`", () => {
    const index = copy({ kind: 'index', children: ['https://a.example/1.xml', 'https://a.example/2.xml'] });
    expect(reusedChildren(index, 10).map((c) => [c.position, c.loc])).toEqual([
      [1, 'https://a.example/1.xml'],
      [2, 'https://a.example/2.xml'],
    ]);
    expect(reusedChildren(index, 1)).toHaveLength(1);
  });
});
