import { describe, expect, it } from 'vitest';
import { crawlIssues, cutWords } from './issues';
import type { CrawlProgress } from './types';

const progress = (over: Partial<CrawlProgress>): CrawlProgress => ({
  fetched: 10,
  queued: 0,
  byStatus: { '2xx': 10 },
  requests: 11,
  sections: [],
  stopped: null,
  ...over,
});

describe('what an audit says about its crawl', () => {
  it('says nothing about a complete crawl', () => {
    expect(crawlIssues(progress({}))).toEqual({ warnings: [], errors: [] });
  });

  it('names the cut sections, their limits (largest first) and an example', () => {
    const issues = crawlIssues(
      progress({
        sections: [
          { section: 'h/', pages: 4, cut: {}, example: null },
          {
            section: 'h/calendar',
            pages: 20,
            cut: { max_depth: 2, pattern_budget: 1_500 },
            example: 'https://h/calendar/2031/01',
          },
        ],
      }),
    );
    expect(issues.errors).toEqual([]);
    expect(issues.warnings).toEqual([
      {
        code: 'crawler_cut',
        message:
          'The crawl was cut by a limit in 1 section: h/calendar (1,500 over the budget of their path pattern, 2 deeper than the depth limit, e.g. https://h/calendar/2031/01). Their declared URLs the crawl did not reach are held as "section not crawled", not pruned.',
      },
    ]);
  });

  it("says why a crawl stopped, once, in the engine's own words", () => {
    const message =
      'The crawl stopped: 45 of its last 50 requests failed (45 timeout); the last: https://h/x';
    const issues = crawlIssues(progress({ stopped: { reason: 'failing', message } }));
    expect(issues.warnings[0]).toEqual({
      code: 'crawler_stopped',
      message: `${message}. Declared URLs it did not reach are held, not pruned: the pages it never fetched could have linked to them.`,
    });
  });

  it('is an error when nothing answered: robots.txt, or the reason it stopped', () => {
    const blocked = crawlIssues(progress({ fetched: 3, byStatus: { blocked: 3 } }));
    expect(blocked.errors).toEqual([
      {
        code: 'crawler_no_pages',
        message:
          'The crawl got no answer from the site: robots.txt disallows 3 of the URLs it had to fetch for this crawler',
        source: null,
      },
    ]);
    const refused = crawlIssues(
      progress({
        fetched: 1,
        byStatus: { error: 1 },
        stopped: { reason: 'host_refused', message: 'h answered 429 or 503 to 5 requests in a row' },
      }),
    );
    expect(refused.errors[0]?.message).toBe(
      'The crawl got no answer from the site: h answered 429 or 503 to 5 requests in a row',
    );
  });

  it('words a section cut for the Crawl tab', () => {
    expect(
      cutWords({ section: 'h/', pages: 1, cut: { query_variants: 1, max_pages: 0 }, example: null }),
    ).toBe('1 over the budget of query strings on one path');
  });
});
