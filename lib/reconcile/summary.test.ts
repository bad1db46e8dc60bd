import { describe, expect, it } from 'vitest';
import {
  canonicalPatternWarning,
  crawlMismatchWarning,
  isCrawlMismatch,
  sanityWarnings,
  signalWarnings,
} from './summary';

const facts = {
  declared: 10,
  crawled: 10,
  matched: 10,
  latestCrawl: new Date('2026-11-01T00:00:00Z'),
  newestLastmod: new Date('2026-11-20T00:00:00Z'),
  hostsNotCrawled: [],
};

describe('sanityWarnings', () => {
  it('says how many recently changed pages are held, and says so when none is', () => {
    const crawl = new Date('2026-11-01T00:00:00Z');
    const [held] = sanityWarnings(facts, 0, crawl, 3);
    expect(held?.message).toBe(
      'The crawl (2026-11-01) is older than the newest lastmod in the sitemap (2026-11-20): 3 recently changed pages the crawl did not reach are held, not judged',
    );
    expect(sanityWarnings(facts, 0, crawl, 1)[0]?.message).toMatch(
      /: 1 recently changed page the crawl did not reach is held/,
    );
    expect(sanityWarnings(facts, 0, crawl, 0)[0]?.message).toMatch(
      /: the crawl has a row for every page changed since, so none is held$/,
    );
  });
});

describe('signalWarnings', () => {
  it('counts in the right number', () => {
    const one = signalWarnings(
      [{ signal: 'canonical_chain', n: 1, examples: ['https://x/a'] }],
      { n: 0, examples: [] },
      [],
    );
    expect(one[0]?.message).toMatch(/^1 declared URL names a canonical/);
    const many = signalWarnings(
      [{ signal: 'redirect_canonical_conflict', n: 2, examples: [] }],
      { n: 1, examples: [{ url: 'https://x/b', fileIds: [1, 2] }] },
      [
        { id: 1, url: 'https://x/s1.xml', uploadName: null },
        { id: 2, url: null, uploadName: 's2.xml' },
      ],
    );
    expect(many.map((w) => w.message.split(':')[0])).toEqual([
      '1 URL is declared in more than one sitemap file',
      '2 declared URLs redirect to a page whose canonical points back to them',
    ]);
    expect(many[0]?.examples).toEqual(['https://x/b (in https://x/s1.xml, s2.xml)']);
  });
});

describe('isCrawlMismatch', () => {
  const matched = {
    undeclared: 30,
    sections: 10,
    sectionsReached: 10,
    hosts: 1,
    hostsReached: 1,
    declared: 100,
    urlsReached: 90,
    crawled: 120,
  };
  it('is a mismatch under 20 % of the sections or URLs reached, or with no host reached', () => {
    expect(isCrawlMismatch(matched)).toBe(false);
    expect(isCrawlMismatch({ ...matched, sectionsReached: 1 })).toBe(true); // 10 %
    expect(isCrawlMismatch({ ...matched, sectionsReached: 2 })).toBe(false); // 20 % is not under
    // Under 20 % of the URLs: a mismatch when the crawl is mostly of other URLs, not when it is small.
    expect(isCrawlMismatch({ ...matched, urlsReached: 19 })).toBe(true);
    expect(isCrawlMismatch({ ...matched, urlsReached: 19, undeclared: 2, crawled: 21 })).toBe(false);
    // A handful of URLs on either side is no share to judge by.
    const tiny = {
      ...matched,
      declared: 3,
      urlsReached: 0,
      undeclared: 1,
      crawled: 1,
      sections: 1,
      sectionsReached: 1,
    };
    expect(isCrawlMismatch(tiny)).toBe(false);
    expect(isCrawlMismatch({ ...matched, hostsReached: 0 })).toBe(true);
  });

  it('does not judge an empty crawl or sitemap', () => {
    expect(isCrawlMismatch({ ...matched, crawled: 0, urlsReached: 0 })).toBe(false);
    expect(isCrawlMismatch({ ...matched, declared: 0, sections: 0 })).toBe(false);
  });
});

describe('crawlMismatchWarning and canonicalPatternWarning', () => {
  const m = {
    undeclared: 5,
    sections: 4,
    sectionsReached: 0,
    hosts: 2,
    hostsReached: 0,
    declared: 9,
    urlsReached: 0,
    crawled: 5,
  };
  it('says what the crawl reached and what it held, or nothing when the crawl matches', () => {
    expect(crawlMismatchWarning({ ...m, mismatch: false }, 0)).toBeNull();
    expect(crawlMismatchWarning({ ...m, mismatch: true }, 9)).toMatchObject({
      code: 'crawl_mismatch',
      count: 9,
      message: expect.stringMatching(
        /^The crawl reached none of the sitemap's 2 hosts: .*The 9 declared URLs/,
      ),
    });
    const fewSections = { ...m, hostsReached: 2, sectionsReached: 0, mismatch: true };
    expect(crawlMismatchWarning(fewSections, 1)?.message).toMatch(
      /reached 0 of the sitemap's 4 sections \(0%, under 20%\).*The 1 declared URL it never reached is held/,
    );
  });

  it('names the largest patterns with their counts and a page of each', () => {
    expect(canonicalPatternWarning([], 0)).toBeNull();
    const w = canonicalPatternWarning(
      [
        {
          target: 'https://a.com/',
          n: 20,
          examples: ['https://a.com/x', 'https://a.com/y', 'https://a.com/z'],
        },
        { target: 'https://a.com/blog/', n: 6, examples: [] },
      ],
      26,
    );
    expect(w).toMatchObject({ code: 'canonical_pattern', count: 26 });
    expect(w?.examples).toEqual([
      'https://a.com/ ← 20 pages (e.g. https://a.com/x, https://a.com/y)',
      'https://a.com/blog/ ← 6 pages',
    ]);
    expect(w?.message).toMatch(
      /26 declared pages name a canonical .*the largest: 20 pages → https:\/\/a\.com\//,
    );
  });
});
