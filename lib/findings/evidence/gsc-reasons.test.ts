import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGscFile } from '@/lib/gsc/parse';
import { fixturePath } from '@/lib/test-support/fixtures';
import {
  bucketOf,
  GSC_ISSUE_CHOICES,
  isIndexedReason,
  isKnownReason,
  matchingFindingReasons,
  reasonKey,
} from './gsc-reasons';

describe('Search Console reasons', () => {
  it('maps every reason of the real exports to a bucket (none is left as other)', () => {
    const dir = fixturePath('gsc');
    const reasons = new Set<string>();
    for (const folder of readdirSync(dir)) {
      for (const name of readdirSync(path.join(dir, folder))) {
        const bytes = readFileSync(path.join(dir, folder, name));
        if (/issues\.csv$/i.test(name)) {
          const file = parseGscFile(name, bytes);
          if (file.kind === 'issues') for (const row of file.rows) reasons.add(row.reason);
        }
        if (/^Metadata\.csv$/i.test(name)) {
          const file = parseGscFile(name, bytes);
          if (file.kind === 'metadata') {
            for (const row of file.rows) if (row.property === 'Issue') reasons.add(row.value);
          }
        }
      }
    }
    expect(reasons.size).toBeGreaterThanOrEqual(14);
    const unknown = [...reasons].filter((r) => bucketOf(r) === 'other');
    expect(unknown).toEqual([]);
  });

  it.each([
    ['Excluded by ‘noindex’ tag', 'noindex'],
    ["Excluded by 'noindex' tag", 'noindex'],
    ['Crawled – currently not indexed', 'crawled_not_indexed'],
    ['Duplicate, Google chose different canonical than user', 'duplicate'],
    ['  Page   with redirect ', 'redirects'],
    ['NOT FOUND (404)', 'http_404'],
    ['Something new Google invented', 'other'],
  ])('reads %j as %s', (reason, bucket) => {
    expect(bucketOf(reason)).toBe(bucket);
  });

  // Every wording Search Console uses now or used before (the Page indexing report since 2022, the
  // Coverage report before it, URL Inspection's coverageState), one case each: `indexed` for those that
  // name indexed pages, else the bucket.
  it.each([
    // Page indexing report, "Why pages aren't indexed"
    ['Server error (5xx)', 'server_error'],
    ['Redirect error', 'redirects'],
    ['Blocked by robots.txt', 'blocked_by_robots'],
    ["Excluded by 'noindex' tag", 'noindex'],
    ['Soft 404', 'soft_404'],
    ['Blocked due to unauthorized request (401)', 'http_401'],
    ['Blocked due to access forbidden (403)', 'http_403'],
    ['Not found (404)', 'http_404'],
    ['Blocked due to other 4xx issue', 'http_4xx'],
    ['Blocked by page removal tool', 'removed'],
    ['Alternative page with proper canonical tag', 'non_canonical'],
    ['Alternate page with proper canonical tag', 'non_canonical'],
    ['Duplicate without user-selected canonical', 'duplicate'],
    ['Duplicate, Google chose different canonical than user', 'duplicate'],
    ['Duplicate', 'duplicate'],
    ['Page with redirect', 'redirects'],
    ['Crawled - currently not indexed', 'crawled_not_indexed'],
    ['Discovered - currently not indexed', 'discovered_not_indexed'],
    // Indexed pages and indexed with a warning
    ['Indexed', 'indexed'],
    ['All indexed pages', 'indexed'],
    ['Indexed, though blocked by robots.txt', 'indexed'],
    ['Indexed though blocked by robots.txt', 'indexed'],
    ['Page indexed without content', 'indexed'],
    ['Indexed without content', 'indexed'],
    // The Coverage report before 2022 (errors, valid, excluded)
    ['Submitted and indexed', 'indexed'],
    ['Indexed, not submitted in sitemap', 'indexed'],
    ["Submitted URL marked 'noindex'", 'noindex'],
    ['Submitted URL not found (404)', 'http_404'],
    ['Submitted URL seems to be a Soft 404', 'soft_404'],
    ['Submitted URL blocked by robots.txt', 'blocked_by_robots'],
    ['Submitted URL has crawl issue', 'crawl_issue'],
    ['Submitted URL returns unauthorized request (401)', 'http_401'],
    ['Submitted URL returned 403', 'http_403'],
    ['Submitted URL blocked due to other 4xx issue', 'http_4xx'],
    ['Submitted URL has redirect error', 'redirects'],
    ['Submitted URL returns server error (5xx)', 'server_error'],
    ["URL marked 'noindex'", 'noindex'],
    ['URL blocked by robots.txt', 'blocked_by_robots'],
    ['Crawl anomaly', 'crawl_issue'],
    ['Duplicate, submitted URL not selected as canonical', 'duplicate'],
    ['Duplicate page without canonical tag', 'duplicate'],
    ['Duplicate, non-HTML page', 'duplicate'],
    ['Page removed because of legal complaint', 'removed'],
    // URL Inspection only
    ['URL is unknown to Google', 'unknown_to_google'],
    // Typography as exports and copies write it
    ['Excluded by ‘noindex’ tag', 'noindex'],
    ['Crawled—currently not indexed', 'crawled_not_indexed'],
    ['Discovered -currently not indexed', 'discovered_not_indexed'],
  ])('maps Google’s wording %j to %s', (wording, expected) => {
    if (expected === 'indexed') {
      expect(isIndexedReason(wording)).toBe(true);
    } else {
      expect(isIndexedReason(wording)).toBe(false);
      expect(bucketOf(wording)).toBe(expected);
    }
    expect(isKnownReason(wording)).toBe(true);
  });

  it('offers only known wordings in the import form, and knows no invented one', () => {
    for (const choice of GSC_ISSUE_CHOICES) expect(isKnownReason(choice)).toBe(true);
    expect(isKnownReason('Something new Google invented')).toBe(false);
  });

  it('names the reconciliation reasons a bucket agrees with', () => {
    expect(matchingFindingReasons('redirects')).toEqual(['redirects']);
    expect(matchingFindingReasons('http_404')).toContain('http_410');
    expect(matchingFindingReasons('crawled_not_indexed')).toEqual([]);
    expect(reasonKey('Excluded by ‘noindex’ tag')).toBe("excluded by 'noindex' tag");
  });
});
