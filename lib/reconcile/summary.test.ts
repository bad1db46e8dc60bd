import { describe, expect, it } from 'vitest';
import { sanityWarnings, signalWarnings } from './summary';

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
