import { describe, expect, it } from 'vitest';
import { HELD_REASONS, PRUNE_REASONS } from '@/lib/findings/schema';
import type { HostProbe, LiveErrorCode, LiveResult, Verdict } from './types';
import { type CheckedFinding, isHtmlAnswer, liveReasonOf, verdictOf } from './verdict';

const U = 'https://shop.example/p/1';

/** A live answer: one hop of `status` unless `to` makes the first hop a 301 to it. */
function live(
  status: number,
  more: Partial<LiveResult> & { to?: string; finalStatus?: number | null } = {},
): LiveResult {
  const { to, ...rest } = more;
  const chain = to
    ? [
        { url: U, status: 301, location: to },
        { url: to, status, location: null },
      ]
    : [{ url: U, status, location: null }];
  return {
    url: U,
    chain,
    finalUrl: to ?? U,
    finalStatus: status,
    contentType: 'text/html; charset=utf-8',
    noindex: false,
    noindexSources: [],
    canonical: null,
    canonicalSource: null,
    title: 'Product one',
    textHash: 'page-hash',
    ms: 12,
    truncated: false,
    retries: 0,
    checkedAt: '2026-12-01T12:00:00.000Z',
    error: null,
    ...rest,
  };
}

function failed(code: LiveErrorCode, finalStatus: number | null = null): LiveResult {
  return {
    ...live(finalStatus ?? 200),
    chain: [],
    finalStatus,
    error: { code, message: `${code} happened` },
  };
}

const healthy = live(200);
const selfCanonical = live(200, { canonical: 'https://shop.example/p/1#top' });
const gone404 = live(404);
const gone410 = live(410);
const forbidden = live(403);
const unavailable = live(503);
const toOther = live(200, { to: 'https://shop.example/p/2' });
const toDead = live(404, { to: 'https://shop.example/gone' });
const toVariant = live(200, { to: 'https://www.shop.example/p/1/' });
const canonicalElsewhere = live(200, { canonical: 'https://shop.example/p/2' });
const noindexed = live(200, { noindex: true, noindexSources: ['header'] });
const pdf = live(200, { contentType: 'application/pdf' });
const soft = live(200, { title: 'Page not found – Shop' });

const prune = (reason: string, extra: Partial<CheckedFinding> = {}): CheckedFinding => ({
  list: 'prune',
  reason,
  url: U,
  ...extra,
});
const held = (reason: string): CheckedFinding => ({ list: 'held', reason, url: U });
const add: CheckedFinding = { list: 'add', reason: 'reachable_not_declared', url: U };

type Row = [string, CheckedFinding, LiveResult, Verdict, string | null];

// Every reason of every list (http_4xx_5xx as 404, 410, 403 and a pruned 503) × representative answers.
const rows: Row[] = [
  ['unreached, live page', prune('unreached_by_crawl'), healthy, 'orphan_live', null],
  ['unreached, 404', prune('unreached_by_crawl'), gone404, 'dead', 'http_404'],
  ['unreached, 410', prune('unreached_by_crawl'), gone410, 'dead', 'http_410'],
  ['unreached, redirect to a 404', prune('unreached_by_crawl'), toDead, 'dead', 'redirects'],
  ['unreached, soft 404', prune('unreached_by_crawl'), soft, 'dead', 'soft_404'],
  ['unreached, noindex', prune('unreached_by_crawl'), noindexed, 'changed', 'noindex'],
  ['unreached, redirect to a page', prune('unreached_by_crawl'), toOther, 'changed', 'redirects'],
  ['variant, redirect to its variant', prune('url_variant'), toVariant, 'confirmed', 'redirects'],
  [
    'variant, canonical to its variant',
    prune('url_variant'),
    live(200, { canonical: 'http://shop.example/p/1/' }),
    'confirmed',
    'non_canonical',
  ],
  ['variant, redirect to another page', prune('url_variant'), toOther, 'changed', 'redirects'],
  ['variant, live itself', prune('url_variant'), healthy, 'contradicted', null],
  ['blocked, now fetched and fine', prune('blocked_by_robots'), healthy, 'contradicted', null],
  [
    'blocked, still disallowed',
    prune('blocked_by_robots'),
    failed('robots_disallowed'),
    'confirmed',
    'blocked_by_robots',
  ],
  ['no response, timeout again', prune('no_response'), failed('timeout'), 'confirmed', 'no_response'],
  ['no response, network again', prune('no_response'), failed('network'), 'confirmed', 'no_response'],
  ['no response, answers now', prune('no_response'), healthy, 'contradicted', null],
  ['no response, 404 now', prune('no_response'), gone404, 'changed', 'http_404'],
  ['404, still 404', prune('http_404'), gone404, 'confirmed', 'http_404'],
  ['404, now 410', prune('http_404'), gone410, 'confirmed', 'http_410'],
  ['404, redirects to a 404', prune('http_404'), toDead, 'confirmed', 'redirects'],
  ['404, soft 404', prune('http_404'), soft, 'confirmed', 'soft_404'],
  ['404, live again', prune('http_404'), healthy, 'contradicted', null],
  [
    '404, live and self-canonical by another spelling',
    prune('http_404'),
    selfCanonical,
    'contradicted',
    null,
  ],
  ['404, redirects to a page', prune('http_404'), toOther, 'changed', 'redirects'],
  ['404, noindex now', prune('http_404'), noindexed, 'changed', 'noindex'],
  ['410, still 410', prune('http_410'), gone410, 'confirmed', 'http_410'],
  ['410, live again', prune('http_410'), healthy, 'contradicted', null],
  ['403, still 403', prune('http_403'), forbidden, 'confirmed', 'http_403'],
  ['403, now 404', prune('http_403'), gone404, 'changed', 'http_404'],
  ['pruned 503, still 503', prune('http_503'), unavailable, 'confirmed', 'server_error'],
  ['pruned 503, now 500', prune('http_503'), live(500), 'confirmed', 'server_error'],
  ['pruned 503, live', prune('http_503'), healthy, 'contradicted', null],
  ['redirects, still redirects', prune('redirects'), toOther, 'confirmed', 'redirects'],
  ['redirects, page now', prune('redirects'), healthy, 'contradicted', null],
  ['redirects, 404 now', prune('redirects'), gone404, 'changed', 'http_404'],
  ['non-canonical, still', prune('non_canonical'), canonicalElsewhere, 'confirmed', 'non_canonical'],
  ['non-canonical, self-canonical now', prune('non_canonical'), selfCanonical, 'contradicted', null],
  ['non-canonical, noindex now', prune('non_canonical'), noindexed, 'changed', 'noindex'],
  ['noindex, still', prune('noindex'), noindexed, 'confirmed', 'noindex'],
  ['noindex, indexable now', prune('noindex'), healthy, 'contradicted', null],
  ['noindex, a PDF now', prune('noindex'), pdf, 'changed', 'non_html'],
  [
    'noindex, an XML file with X-Robots-Tag noindex (a Yoast sitemap declared)',
    prune('noindex'),
    { ...pdf, contentType: 'text/xml; charset=UTF-8', noindex: true, noindexSources: ['header'] },
    'confirmed',
    'noindex',
  ],
  ['newer than crawl, live', held('newer_than_crawl'), healthy, 'orphan_live', null],
  ['newer than crawl, 404', held('newer_than_crawl'), gone404, 'dead', 'http_404'],
  ['section not crawled, live', held('section_not_crawled'), healthy, 'orphan_live', null],
  [
    'section not crawled, 410 after a redirect',
    held('section_not_crawled'),
    live(410, { to: 'https://shop.example/x' }),
    'dead',
    'redirects',
  ],
  [
    'section not crawled, canonical elsewhere',
    held('section_not_crawled'),
    canonicalElsewhere,
    'changed',
    'non_canonical',
  ],
  ['crawl mismatch, live', held('crawl_mismatch'), healthy, 'orphan_live', null],
  ['crawl mismatch, 404', held('crawl_mismatch'), gone404, 'dead', 'http_404'],
  [
    'canonical loop, canonical still elsewhere',
    held('canonical_conflict'),
    canonicalElsewhere,
    'confirmed',
    'non_canonical',
  ],
  ['canonical loop, redirects still', held('canonical_conflict'), toOther, 'confirmed', 'redirects'],
  ['canonical loop, fixed', held('canonical_conflict'), selfCanonical, 'contradicted', null],
  ['canonical pattern, still', held('canonical_pattern'), canonicalElsewhere, 'confirmed', 'non_canonical'],
  ['canonical pattern, fixed', held('canonical_pattern'), healthy, 'contradicted', null],
  ['server error, answers 200', held('server_error'), healthy, 'recovered', null],
  ['server error, still 503', held('server_error'), unavailable, 'confirmed', 'server_error'],
  ['server error, 429 now', held('server_error'), live(429), 'confirmed', 'server_error'],
  [
    'server error, 503 after the retries',
    held('server_error'),
    failed('rate_limited', 503),
    'confirmed',
    'server_error',
  ],
  ['server error, 404 now', held('server_error'), gone404, 'dead', 'http_404'],
  ['server error, 200 with noindex', held('server_error'), noindexed, 'changed', 'noindex'],
  ['add, still a page', add, healthy, 'confirmed', null],
  ['add, noindex now', add, noindexed, 'changed', 'noindex'],
  ['add, canonical elsewhere now', add, canonicalElsewhere, 'changed', 'non_canonical'],
  ['add, redirects now', add, toOther, 'changed', 'redirects'],
  ['add, 404 now', add, gone404, 'changed', 'http_404'],
  ['add, not HTML', add, pdf, 'changed', 'non_html'],
  ['add, soft 404', add, soft, 'changed', 'soft_404'],
  ['404, timeout', prune('http_404'), failed('timeout'), 'error', null],
  ['unreached, blocked address', prune('unreached_by_crawl'), failed('blocked_address'), 'error', null],
  ['server error, redirect loop', held('server_error'), failed('redirect_loop'), 'error', null],
  ['add, robots disallowed', add, failed('robots_disallowed'), 'error', null],
  ['noindex, rate limited', prune('noindex'), failed('rate_limited', 429), 'error', null],
  ['redirects, cancelled', prune('redirects'), failed('cancelled'), 'error', null],
  [
    'server error, rate limited without an answer',
    held('server_error'),
    failed('rate_limited'),
    'error',
    null,
  ],
];

describe('verdictOf', () => {
  it.each(rows)('%s', (_name, finding, answer, verdict, liveReason) => {
    const result = verdictOf(finding, answer);
    expect({ verdict: result.verdict, liveReason: result.liveReason }).toEqual({ verdict, liveReason });
    expect(result.explanation.length).toBeGreaterThan(10);
  });

  it('covers every named reason of the prune and held lists', () => {
    const covered = new Set(rows.map(([, f]) => f.reason));
    for (const reason of [...PRUNE_REASONS, ...HELD_REASONS].filter((r) => r !== 'http_4xx_5xx')) {
      expect(covered, reason).toContain(reason);
    }
  });

  it("compares canonicals under the audit's profile", () => {
    const slash = live(200, { canonical: 'https://shop.example/p/1/' });
    expect(verdictOf(prune('http_404'), slash, null, { profile: 'exact' }).verdict).toBe('changed');
    expect(verdictOf(prune('http_404'), slash, null, { profile: 'lenient' }).verdict).toBe('contradicted');
  });

  it('says what moved since the crawl when the reason holds', () => {
    const redirect = verdictOf(prune('redirects', { redirectUrl: 'https://shop.example/old' }), toOther);
    expect(redirect.explanation).toContain('the crawl saw it redirect to https://shop.example/old');
    const canonical = verdictOf(
      prune('non_canonical', { canonical: 'https://shop.example/p/9' }),
      canonicalElsewhere,
    );
    expect(canonical.explanation).toContain('the crawl saw the canonical https://shop.example/p/9');
    expect(
      verdictOf(prune('redirects', { redirectUrl: 'https://shop.example/p/2' }), toOther).explanation,
    ).not.toContain('crawl saw');
  });

  it('says in words what the live page answers', () => {
    expect(verdictOf(prune('unreached_by_crawl'), healthy).explanation).toBe(
      'The live page answers 200, an indexable, self-canonical HTML page: it is live but nothing links to it. Add internal links; do not prune.',
    );
    expect(verdictOf(prune('http_404'), toDead).explanation).toBe(
      'The live page redirects to https://shop.example/gone (1 hop), which answers 404: the reason holds.',
    );
    expect(verdictOf(add, noindexed).explanation).toContain('with noindex (header)');
    expect(verdictOf(add, pdf).explanation).toContain('with application/pdf, not an HTML page');
    expect(verdictOf(add, soft).explanation).toContain('soft 404');
    expect(verdictOf(add, canonicalElsewhere).explanation).toContain(
      'canonical elsewhere (https://shop.example/p/2)',
    );
  });

  it('gives the reason of an error', () => {
    expect(verdictOf(prune('http_404'), failed('timeout')).explanation).toBe(
      'Could not check: timeout happened',
    );
  });
});

describe('soft 404s (soft404.ts) in verdicts', () => {
  const probe = (more: Partial<HostProbe>): HostProbe => ({
    origin: 'https://shop.example',
    url: 'https://shop.example/zz-does-not-exist-81f2',
    finalUrl: 'https://shop.example/zz-does-not-exist-81f2',
    status: 200,
    title: 'Shop',
    textHash: 'nothing-hash',
    fingerprint: null,
    ...more,
  });

  it('reads a page like the probe as gone', () => {
    const likeProbe = live(200, { title: 'Shop' });
    expect(liveReasonOf(likeProbe, probe({}))).toBe('soft_404');
    expect(verdictOf(prune('unreached_by_crawl'), likeProbe, probe({})).verdict).toBe('dead');
    expect(verdictOf(prune('http_404'), live(200, { textHash: 'nothing-hash' }), probe({})).verdict).toBe(
      'confirmed',
    );
    // Without the probe the same page is a live orphan.
    expect(verdictOf(prune('unreached_by_crawl'), likeProbe).verdict).toBe('orphan_live');
  });

  it('reads a redirect to where the probe lands (the home page) as gone, not as a live page', () => {
    const home = 'https://shop.example/';
    const sentHome = live(200, { to: home, title: 'Shop – home', textHash: 'home-hash' });
    const probeHome = probe({ finalUrl: home, title: 'Shop – home', textHash: 'home-hash' });
    const unreached = verdictOf(prune('unreached_by_crawl'), sentHome, probeHome);
    expect(unreached).toMatchObject({ verdict: 'dead', liveReason: 'redirects' });
    expect(unreached.explanation).toContain('soft 404');
    expect(verdictOf(prune('http_404'), sentHome, probeHome).verdict).toBe('confirmed');
    // The home page itself is no soft 404.
    expect(
      verdictOf(
        prune('unreached_by_crawl'),
        live(200, {
          url: home,
          finalUrl: home,
          chain: [{ url: home, status: 200, location: null }],
          title: 'Shop – home',
          textHash: 'home-hash',
        }),
        probeHome,
      ).verdict,
    ).toBe('orphan_live');
  });

  it('ignores a title shared with a probe the host answered honestly (404)', () => {
    const shared = live(200, { title: 'Shop' });
    expect(
      verdictOf(prune('unreached_by_crawl'), shared, probe({ status: 404, textHash: null })).verdict,
    ).toBe('orphan_live');
  });
});

describe('liveReasonOf and isHtmlAnswer', () => {
  it('reads a missing status as no response and other statuses as http_<status>', () => {
    expect(liveReasonOf({ ...healthy, chain: [], finalStatus: null })).toBe('no_response');
    expect(liveReasonOf(live(204))).toBe('http_204');
    expect(liveReasonOf(live(300))).toBe('http_300');
  });

  it('decides HTML by content type, else by the path', () => {
    expect(isHtmlAnswer('application/xhtml+xml', U)).toBe(true);
    expect(isHtmlAnswer('image/png', U)).toBe(false);
    expect(isHtmlAnswer(null, 'https://shop.example/a.PDF?x=1')).toBe(false);
    expect(isHtmlAnswer('', 'https://shop.example/a')).toBe(true);
    expect(isHtmlAnswer(null, 'not a url')).toBe(true);
  });
});
