import { describe, expect, it } from 'vitest';
import type { IndexStatus } from './inspection-schema';
import { inspectionStateOf } from './inspection-state';

const status = (verdict: string | null, coverageState: string | null): IndexStatus => ({
  verdict,
  coverageState,
  indexingState: null,
  pageFetchState: null,
  robotsTxtState: null,
  googleCanonical: null,
  userCanonical: null,
  lastCrawlTime: null,
  sitemaps: [],
});

describe('inspectionStateOf', () => {
  it.each([
    ['PASS', 'Submitted and indexed', { state: 'indexed', bucket: null }],
    ['NEUTRAL', 'Indexed, not submitted in sitemap', { state: 'indexed', bucket: null }],
    ['NEUTRAL', 'Crawled - currently not indexed', { state: 'not_indexed', bucket: 'crawled_not_indexed' }],
    [
      'NEUTRAL',
      'Discovered – currently not indexed',
      { state: 'not_indexed', bucket: 'discovered_not_indexed' },
    ],
    ['NEUTRAL', 'Page with redirect', { state: 'not_indexed', bucket: 'redirects' }],
    ['FAIL', 'Submitted URL marked ‘noindex’', { state: 'not_indexed', bucket: 'noindex' }],
    ['FAIL', 'Submitted URL blocked by robots.txt', { state: 'not_indexed', bucket: 'blocked_by_robots' }],
    ['NEUTRAL', 'URL is unknown to Google', { state: 'not_indexed', bucket: 'unknown_to_google' }],
    ['PARTIAL', 'Indexed, though blocked by robots.txt', { state: 'indexed', bucket: null }],
    ['VERDICT_UNSPECIFIED', null, { state: 'not_indexed', bucket: 'other' }],
  ])('%s / %s', (verdict, coverage, expected) => {
    expect(inspectionStateOf(status(verdict, coverage))).toEqual(expected);
  });
});
