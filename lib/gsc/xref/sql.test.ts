import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { agreesWith, gscConditionSql, matchingReasonsSql } from '@/lib/findings/evidence/gsc';

describe('agreesWith', () => {
  it("is true when the bucket names one of the row's reasons, false when none", () => {
    expect(agreesWith('http_404', ['http_410'])).toBe(true);
    expect(agreesWith('redirects', ['unreached_by_crawl', 'redirects'])).toBe(true);
    expect(agreesWith('http_404', ['unreached_by_crawl'])).toBe(false);
  });
  it('is null for buckets only Google can tell, unknown buckets and indexed pages', () => {
    expect(agreesWith('crawled_not_indexed', ['http_404'])).toBeNull();
    expect(agreesWith('duplicate', ['non_canonical'])).toBeNull();
    expect(agreesWith('made_up', ['http_404'])).toBeNull();
    expect(agreesWith(null, ['http_404'])).toBeNull();
  });
});

describe('gscConditionSql', () => {
  it('refuses a match without a bucket', () => {
    expect(() => gscConditionSql('$1', 'indexed', 'agrees')).toThrow(AppError);
    expect(() => gscConditionSql('$1', undefined, 'disagrees')).toThrow(/gscMatch needs gsc/);
  });
  it('is an anti-join for unknown and never matches for a bucket without reasons of ours', () => {
    expect(gscConditionSql('$1', 'unknown')).toMatch(/^NOT \(f\.key IN \(SELECT g\.key FROM/);
    expect(gscConditionSql('$1', 'crawled_not_indexed', 'agrees')).toBe('false');
    expect(gscConditionSql('$1', 'http_404', 'disagrees')).toContain(
      "NOT coalesce(f.reasons && ARRAY['http_404', 'http_410']::text[]",
    );
  });
  it('lists the matching reasons of every bucket that has some', () => {
    expect(matchingReasonsSql()).toContain("WHEN 'noindex' THEN ARRAY['noindex']::text[]");
    expect(matchingReasonsSql()).not.toContain("'crawled_not_indexed'");
  });
});
