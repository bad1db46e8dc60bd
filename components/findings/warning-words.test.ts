import { describe, expect, it } from 'vitest';
import type { FindingsOverview } from '@/lib/findings/schema';
import { isSignalWarning, warningMessage } from './warning-words';

const stale = {
  code: 'crawl_older_than_lastmod',
  message:
    'The crawl (2026-11-01) is older than the newest lastmod in the sitemap (2026-11-20): recently changed pages are held, not judged',
};

function overview(heldNewer: number | undefined): FindingsOverview {
  const list = { total: 0, byReason: {} };
  const byReason: Record<string, number> = heldNewer === undefined ? {} : { newer_than_crawl: heldNewer };
  return {
    prune: list,
    add: list,
    held: { total: heldNewer ?? 0, byReason },
    decisions: {
      prune: { pending: 0, approved: 0, rejected: 0 },
      add: { pending: 0, approved: 0, rejected: 0 },
      held: { pending: 0, approved: 0, rejected: 0 },
    },
    addExcluded: { otherHost: 0, blocked: 0, non200: 0, nonHtml: 0, canonicalised: 0, noindex: 0 },
    otherHosts: [],
    crawlTime: null,
    reconciledAt: '2026-11-21T00:00:00Z',
    indexesReady: true,
  };
}

describe('warningMessage', () => {
  it('says how many recently changed pages are held when some are', () => {
    expect(warningMessage(stale, overview(3))).toBe(
      'The crawl (2026-11-01) is older than the newest lastmod in the sitemap (2026-11-20): 3 recently changed pages are held, not judged.',
    );
  });

  it('drops the hint when no page is held as newer than the crawl', () => {
    for (const held of [0, undefined]) {
      const text = warningMessage(stale, overview(held));
      expect(text).not.toMatch(/are held/);
      expect(text).toMatch(
        /^The crawl \(2026-11-01\) is older than the newest lastmod in the sitemap \(2026-11-20\)\./,
      );
    }
  });

  it('words the none-held clause of older audits as new ones say it', () => {
    const old = {
      code: 'crawl_older_than_lastmod',
      message:
        'The crawl (2026-11-01) is older than the newest lastmod in the sitemap (2026-11-20): every page changed since was crawled, so none is held for it',
    };
    expect(warningMessage(old, null)).toBe(
      'The crawl (2026-11-01) is older than the newest lastmod in the sitemap (2026-11-20): the crawl has a row for every page changed since, so none is held',
    );
  });

  it('leaves other warnings, and a reworded one, as the server wrote them', () => {
    const other = { code: 'prune_share_high', message: 'The prune list holds 40%' };
    expect(warningMessage(other, overview(0))).toBe(other.message);
    const reworded = { code: 'crawl_older_than_lastmod', message: 'Something else' };
    expect(warningMessage(reworded, overview(0))).toBe('Something else');
  });
});

describe('isSignalWarning', () => {
  it('knows the signal codes', () => {
    expect(isSignalWarning({ code: 'multi_file' })).toBe(true);
    expect(isSignalWarning({ code: 'canonical_chain' })).toBe(true);
    expect(isSignalWarning({ code: 'no_overlap' })).toBe(false);
  });
});
