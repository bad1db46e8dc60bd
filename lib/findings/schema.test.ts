import { describe, expect, it } from 'vitest';
import { reasonsPerFile } from '@/lib/reconcile/summary';
import { ZFindingsSummary } from './schema';

/** A summary as the reconcile job writes it. */
const written = {
  crawlTime: '2026-11-01T00:00:00.000Z',
  declaredKeys: 1200,
  crawledKeys: 1100,
  matchedKeys: 1000,
  addExcluded: { otherHost: 5, nonHtml: 3, blocked: 1, non200: 4, noindex: 2, canonicalised: 1 },
  otherHosts: [{ host: 'www.youtube.com', n: 5, example: 'https://www.youtube.com/watch?v=1' }],
  byFile: reasonsPerFile(
    [
      { fileId: 1, reason: 'unreached_by_crawl', n: 150 },
      { fileId: 2, reason: 'http_404', n: 50 },
      { fileId: null, reason: 'reachable_not_declared', n: 30 },
    ],
    [
      { id: 1, url: 'https://example.com/sitemap-1.xml', uploadName: null },
      { id: 2, url: null, uploadName: 'sitemap-2.xml' },
    ],
    1,
  ),
};

describe('ZFindingsSummary', () => {
  it('reads what the reconcile job writes, before the review indexes exist', () => {
    expect(written.byFile).toHaveLength(2); // one named file and the folded "other files"
    expect(ZFindingsSummary.parse(written)).toEqual(written);
  });

  it('reads the exclusions of audits reconciled before other hosts, non-HTML and blocked pages were counted apart', () => {
    const old = { ...written, addExcluded: { non200: 4, noindex: 2, canonicalised: 1 } };
    expect(ZFindingsSummary.parse(old).addExcluded).toEqual({
      otherHost: 0,
      nonHtml: 0,
      blocked: 0,
      non200: 4,
      noindex: 2,
      canonicalised: 1,
    });
  });

  it('reads indexedAt in the format Postgres writes it (to_jsonb(now()))', () => {
    const indexed = { ...written, indexedAt: '2026-12-01T10:51:23.123456+00:00' };
    expect(ZFindingsSummary.parse(indexed).indexedAt).toBe('2026-12-01T10:51:23.123456+00:00');
  });

  it('reads a reconcile without a crawl time', () => {
    expect(ZFindingsSummary.parse({ ...written, crawlTime: null }).crawlTime).toBeNull();
  });

  it.each([
    ['no exclusions', { ...written, addExcluded: undefined }],
    ['a count as text', { ...written, addExcluded: { non200: '4', noindex: 2, canonicalised: 1 } }],
    ['a crawl time that is not one', { ...written, crawlTime: 'yesterday' }],
    ['a file without its reasons', { ...written, byFile: [{ fileId: 1, url: null, uploadName: null }] }],
    ['only the review-index stamp', { indexedAt: '2026-12-01T10:51:23.123456+00:00' }],
  ])('rejects %s', (_name, value) => {
    expect(ZFindingsSummary.safeParse(value).success).toBe(false);
  });
});
