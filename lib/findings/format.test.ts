import { describe, expect, it } from 'vitest';
import { PRUNE_SHARE_LIMIT } from '@/lib/reconcile/summary';
import {
  evidenceLines,
  exportHref,
  type FindingView,
  filterOf,
  findingQueryFromSearchParams,
  formatLastmod,
  isSanityWarning,
  reasonLabel,
  SORT_LABELS,
  sanityWarningTitle,
  sitemapFileLabel,
  toSearchParams,
} from './format';
import { type FindingDto, SORTS } from './schema';

function finding(overrides: Partial<FindingDto>): FindingDto {
  return {
    id: 1,
    url: 'https://example.com/a',
    list: 'prune',
    reason: 'unreached_by_crawl',
    reasons: [],
    evidence: {},
    signals: [],
    status: null,
    canonical: null,
    lastmod: null,
    depth: null,
    inlinks: null,
    target: null,
    sitemapFile: null,
    sitemapFiles: [],
    decision: 'pending',
    decidedBy: null,
    decidedAt: null,
    note: null,
    spotCheck: null,
    gsc: null,
    ...overrides,
  };
}

describe('reasonLabel', () => {
  it.each([
    ['unreached_by_crawl', 'Not reached by the crawl'],
    ['blocked_by_robots', 'Blocked by robots.txt'],
    ['http_404', 'HTTP 404'],
    ['http_503', 'HTTP 503'],
    ['redirects', 'Redirects'],
    ['non_canonical', 'Not canonical'],
    ['newer_than_crawl', 'Newer than the crawl'],
    ['reachable_not_declared', 'Reachable, not declared'],
    ['some_new_rule', 'Some new rule'],
    ['', 'Unknown reason'],
  ])('%s → %s', (reason, label) => {
    expect(reasonLabel(reason)).toBe(label);
  });
});

describe('sitemapFileLabel', () => {
  it('prefers the upload name, then the URL, then the id', () => {
    expect(sitemapFileLabel({ id: 3, uploadName: 'a.xml', url: 'https://x/a.xml' })).toBe('a.xml');
    expect(sitemapFileLabel({ id: 3, uploadName: null, url: 'https://x/a.xml' })).toBe('https://x/a.xml');
    expect(sitemapFileLabel({ id: 3, uploadName: null, url: null })).toBe('Sitemap file #3');
    expect(sitemapFileLabel(null)).toBe('No sitemap file');
  });
});

describe('formatLastmod', () => {
  it('shows the day alone at midnight UTC and the UTC time otherwise', () => {
    expect(formatLastmod('2026-11-03T00:00:00.000Z')).toBe('2026-11-03');
    expect(formatLastmod('2026-11-03T10:30:00+02:00')).toBe('2026-11-03 08:30 UTC');
    expect(formatLastmod(null)).toBe('—');
    expect(formatLastmod('yesterday')).toBe('yesterday');
  });
});

describe('evidenceLines', () => {
  it('explains a redirect and what its target answers', () => {
    const lines = evidenceLines(
      finding({
        reason: 'redirects',
        status: 301,
        evidence: { status: 301, redirectTarget: 'https://x/y', redirectTargetStatus: 404 },
      }),
    );
    expect(lines).toEqual(['Redirects to https://x/y, which answers 404']);
  });

  it('does not repeat a redirect status as a bare status', () => {
    expect(evidenceLines(finding({ reason: 'redirects', status: 302 }))).toEqual(['Redirects (HTTP 302)']);
  });

  it('explains a redirect without a known target status', () => {
    expect(
      evidenceLines(finding({ reason: 'redirects', evidence: { redirectTarget: 'https://x/y' } })),
    ).toEqual(['Redirects to https://x/y']);
  });

  it('says whether the canonical target is declared in the sitemap', () => {
    const declared = finding({
      reason: 'non_canonical',
      status: 200,
      evidence: { status: 200, canonical: 'https://x/z', canonicalDeclared: true },
    });
    expect(evidenceLines(declared)).toEqual([
      'Answers HTTP 200',
      'Canonical points to https://x/z (declared in the sitemap)',
    ]);
    const undeclared = finding({
      reason: 'non_canonical',
      canonical: 'https://x/z',
      evidence: { canonicalDeclared: false },
    });
    expect(evidenceLines(undeclared)).toContain(
      'Canonical points to https://x/z (not declared in the sitemap)',
    );
  });

  it('mentions indexability only for add rows', () => {
    expect(
      evidenceLines(finding({ reason: 'http_404', status: 404, evidence: { indexable: true } })),
    ).toEqual(['Answers HTTP 404']);
  });

  it('ignores a self-referencing canonical', () => {
    const lines = evidenceLines(
      finding({ reason: 'noindex', canonical: 'https://example.com/a', evidence: { noindex: true } }),
    );
    expect(lines).toEqual(['Marked noindex']);
  });

  it('covers unreached, variants, robots and error statuses', () => {
    expect(evidenceLines(finding({ evidence: {} }))).toEqual(['The crawl never reached this URL']);
    expect(evidenceLines(finding({ evidence: { section: 'example.com/blog/' } }))).toEqual([
      'The crawl covered example.com/blog/ but never reached this URL',
    ]);
    expect(
      evidenceLines(finding({ reason: 'url_variant', evidence: { variantUrl: 'https://example.com/a/' } })),
    ).toEqual(['The crawl found it as https://example.com/a/, a variant of the declared URL']);
    expect(
      evidenceLines(finding({ reason: 'blocked_by_robots', evidence: { blockedByRobots: true } })),
    ).toEqual(['Blocked by robots.txt']);
    expect(evidenceLines(finding({ reason: 'http_410', status: 410 }))).toEqual(['Answers HTTP 410']);
    expect(evidenceLines(finding({ reason: 'no_response' }))).toEqual([
      'The crawl got no response for this URL',
    ]);
  });

  it('dates held rows in UTC and names the uncrawled section', () => {
    expect(
      evidenceLines(
        finding({
          list: 'held',
          reason: 'newer_than_crawl',
          evidence: { lastmod: '2026-03-02T23:30:00-05:00', crawlTime: '2026-03-01T10:00:00Z' },
        }),
      ),
    ).toEqual(['Last modified 2026-03-03, crawled 2026-03-01']);
    expect(
      evidenceLines(
        finding({ list: 'held', reason: 'section_not_crawled', evidence: { section: '/blog/' } }),
      ),
    ).toEqual(['No page in the section /blog/ was crawled']);
  });

  it('describes add rows and skips values of the wrong type', () => {
    const lines = evidenceLines(
      finding({
        list: 'add',
        reason: 'reachable_not_declared',
        status: 200,
        evidence: {
          indexable: true,
          depth: 3,
          occurrences: 'many',
          crawledUrl: 'https://example.com/a',
          crawledAt: '2026-11-27T09:00:00+00:00',
        },
      }),
    );
    expect(lines).toEqual([
      'Answers HTTP 200',
      'Indexable in the crawl',
      'Crawled 2026-11-27',
      'Found at crawl depth 3',
    ]);
  });

  it('mentions repeated declarations', () => {
    expect(evidenceLines(finding({ evidence: { occurrences: 3 } }))).toContain(
      'Declared 3 times in the sitemaps',
    );
  });
});

describe('sanity warnings', () => {
  it('recognises the reconciliation warnings and titles them', () => {
    for (const code of ['prune_share_high', 'crawl_older_than_lastmod', 'hosts_not_crawled', 'no_overlap'])
      expect(isSanityWarning({ code })).toBe(true);
    expect(isSanityWarning({ code: 'sitemap_too_large' })).toBe(false);
    expect(sanityWarningTitle('no_overlap')).toBe('The sitemap and the crawl do not overlap');
  });

  it('titles the prune-share warning truly for the share that raises it', () => {
    // Raised above PRUNE_SHARE_LIMIT: a title saying "most" holds only from one half up.
    expect(PRUNE_SHARE_LIMIT).toBeLessThan(0.5);
    expect(sanityWarningTitle('prune_share_high')).not.toMatch(/\bmost\b/i);
    expect(sanityWarningTitle('prune_share_high')).toBe('A large share of the sitemap would be pruned');
  });
});

describe('URL state', () => {
  it('reads a full view from search params', () => {
    const params = new URLSearchParams(
      'list=held&reason=newer_than_crawl&decision=approved&q=blog&host=example.com&pathPrefix=/a/&file=7&signal=multi_file&verdict=confirming&gsc=http_404&gscMatch=disagrees&sort=-inlinks&cursor=abc',
    );
    expect(findingQueryFromSearchParams(params)).toEqual({
      list: 'held',
      reason: 'newer_than_crawl',
      decision: 'approved',
      q: 'blog',
      host: 'example.com',
      pathPrefix: '/a/',
      file: 7,
      signal: 'multi_file',
      verdict: 'confirming',
      gsc: 'http_404',
      gscMatch: 'disagrees',
      sort: '-inlinks',
      cursor: 'abc',
    });
  });

  it('falls back to defaults for missing or invalid values', () => {
    const view = findingQueryFromSearchParams(
      new URLSearchParams(
        'list=bogus&decision=maybe&sort=random&reason=DROP TABLE&q=%20%20&file=1.5&signal=bogus&verdict=maybe&gsc=maybe&gscMatch=sometimes',
      ),
      'add',
    );
    expect(view).toEqual({
      list: 'add',
      reason: undefined,
      decision: undefined,
      q: undefined,
      host: undefined,
      pathPrefix: undefined,
      file: undefined,
      signal: undefined,
      verdict: undefined,
      gsc: undefined,
      gscMatch: undefined,
      sort: 'id',
      cursor: undefined,
    });
    expect(findingQueryFromSearchParams(new URLSearchParams()).list).toBe('prune');
    expect(findingQueryFromSearchParams(new URLSearchParams({ q: 'x'.repeat(501) })).q).toBeUndefined();
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    const view: FindingView = {
      list: 'prune',
      sort: 'id',
      reason: 'http_404',
      q: 'a b&c',
      file: 3,
      verdict: 'unchecked',
      gsc: 'indexed',
    };
    const params = toSearchParams(view);
    expect(params.toString()).toBe(
      'list=prune&reason=http_404&q=a+b%26c&file=3&verdict=unchecked&gsc=indexed',
    );
    expect(findingQueryFromSearchParams(params)).toMatchObject(view);
    const sorted = toSearchParams({ list: 'add', sort: '-url', cursor: 'c1' });
    expect(sorted.toString()).toBe('list=add&sort=-url&cursor=c1');
  });

  it('keeps only the filter for bulk decisions (no sort, no cursor)', () => {
    expect(
      filterOf({
        list: 'prune',
        sort: '-url',
        cursor: 'x',
        decision: 'pending',
        host: 'h',
        signal: 'multi_file',
        verdict: 'dead',
      }),
    ).toEqual({
      list: 'prune',
      decision: 'pending',
      host: 'h',
      signal: 'multi_file',
      verdict: 'dead',
    });
  });

  it('builds export links', () => {
    expect(exportHref('a/b', 'prune', 'approved')).toBe(
      '/api/v1/audits/a%2Fb/export?list=prune&decision=approved&format=csv',
    );
    expect(exportHref('id', 'add', 'all', 'jsonl')).toBe(
      '/api/v1/audits/id/export?list=add&decision=all&format=jsonl',
    );
    // A filter's rows, its own decision replaced by the export's; the BOM only for a CSV.
    const filter = {
      list: 'prune' as const,
      decision: 'pending' as const,
      file: 4,
      signal: 'multi_file' as const,
    };
    expect(exportHref('id', filter, 'approved', 'csv', { bom: true })).toBe(
      '/api/v1/audits/id/export?list=prune&file=4&signal=multi_file&decision=approved&format=csv&bom=1',
    );
    expect(exportHref('id', filter, 'all', 'jsonl', { bom: true })).toBe(
      '/api/v1/audits/id/export?list=prune&file=4&signal=multi_file&decision=all&format=jsonl',
    );
  });

  it('labels every sort', () => {
    expect(Object.keys(SORT_LABELS)).toEqual([...SORTS]);
  });
});
