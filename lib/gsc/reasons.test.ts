import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@/lib/test-support/fixtures';
import { parseGscFile } from './parse';
import { bucketOf, matchingFindingReasons, reasonKey } from './reasons';

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

  it('names the reconciliation reasons a bucket agrees with', () => {
    expect(matchingFindingReasons('redirects')).toEqual(['redirects']);
    expect(matchingFindingReasons('http_404')).toContain('http_410');
    expect(matchingFindingReasons('crawled_not_indexed')).toEqual([]);
    expect(reasonKey('Excluded by ‘noindex’ tag')).toBe("excluded by 'noindex' tag");
  });
});
