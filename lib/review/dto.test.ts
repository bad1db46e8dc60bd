import { describe, expect, it } from 'vitest';
import { evidenceOf } from '@/lib/findings/evidence/rows';
import { replacementOf } from '@/lib/findings/target';
import type { FindingRow, LatestCheckRow } from '@/lib/findings/types';
import { findingRow } from '@/lib/test-support/finding-row';
import { toSpotCheck, toSpotCheckDetail } from './columns/live/dto';
import { toFindingDto } from './dto';

describe('toFindingDto', () => {
  it('maps a row to the API shape, dates as ISO strings', () => {
    const row = findingRow({
      id: 42,
      list: 'prune',
      reason: 'http_404',
      reasons: ['http_404', 'noindex'],
      status: 404,
      canonical: 'https://example.com/c',
      lastmod: new Date('2026-11-01T10:00:00.250Z'),
      sitemap_file_id: 3,
      file_url: 'https://example.com/sitemap.xml',
      file_upload_name: null,
      decision: 'approved',
      decided_by: 'rita@example.com',
      decided_at: new Date('2026-11-30T08:00:00Z'),
      note: 'gone for good',
    });
    expect(toFindingDto(row, null)).toEqual({
      id: 42,
      url: 'https://example.com/a',
      list: 'prune',
      reason: 'http_404',
      reasons: ['http_404', 'noindex'],
      evidence: { status: 404, lastmod: '2026-11-01T10:00:00.250Z' },
      signals: [],
      status: 404,
      canonical: 'https://example.com/c',
      lastmod: '2026-11-01T10:00:00.250Z',
      depth: null,
      inlinks: null,
      target: null,
      sitemapFile: { id: 3, url: 'https://example.com/sitemap.xml', uploadName: null },
      sitemapFiles: [{ id: 3, url: 'https://example.com/sitemap.xml', uploadName: null }],
      decision: 'approved',
      decidedBy: 'rita@example.com',
      decidedAt: '2026-11-30T08:00:00.000Z',
      note: 'gone for good',
      spotCheck: null,
      gsc: null,
    });
  });

  it('falls back to the reason when a row has no reasons, and to no file', () => {
    const dto = toFindingDto(
      findingRow({ reason: 'redirects', reasons: null, signals: null }),
      null,
      undefined,
    );
    expect(dto.reasons).toEqual(['redirects']);
    expect(dto.signals).toEqual([]);
    expect(dto.sitemapFile).toBeNull();
    expect(dto.sitemapFiles).toEqual([]);
  });

  it('lists every declaring file when several do, in file_ids order, and keeps the shown one', () => {
    const dto = toFindingDto(
      findingRow({
        sitemap_file_id: 9,
        file_url: null,
        file_upload_name: 'news.xml',
        file_ids: [4, 9, 12],
        // The JSON aggregate of the reads; a file it lacks is still named by its id.
        files: [
          { id: 9, url: null, uploadName: 'news.xml' },
          { id: 4, url: 'https://example.com/sitemap-a.xml', uploadName: null },
        ],
        signals: ['multi_file'],
        depth: 0,
        inlinks: 12,
      }),
      null,
      undefined,
    );
    expect(dto.sitemapFile).toEqual({ id: 9, url: null, uploadName: 'news.xml' });
    expect(dto.sitemapFiles).toEqual([
      { id: 4, url: 'https://example.com/sitemap-a.xml', uploadName: null },
      { id: 9, url: null, uploadName: 'news.xml' },
      { id: 12, url: null, uploadName: null },
    ]);
    expect(dto).toMatchObject({ signals: ['multi_file'], depth: 0, inlinks: 12 });
  });
});

describe('the target of a finding', () => {
  const facts = {
    redirect_url: 'https://example.com/r',
    target_status: 404,
    canonical: 'https://example.com/c',
    canonical_status: 301,
    variant_url: 'https://example.com/a/',
    variant_status: 200,
  };
  const dtoOf = (reasons: string[], more: Partial<FindingRow> = {}) =>
    toFindingDto(findingRow({ reason: reasons[0], reasons, ...facts, ...more }), null);
  const targetOf = (reasons: string[], more: Partial<FindingRow> = {}) => dtoOf(reasons, more).target;

  it('is the redirect target, the canonical or the variant, with their crawl status', () => {
    expect(targetOf(['redirects'])).toEqual({ kind: 'redirect', url: 'https://example.com/r', status: 404 });
    expect(targetOf(['non_canonical'])).toEqual({
      kind: 'canonical',
      url: 'https://example.com/c',
      status: 301,
    });
    expect(targetOf(['url_variant'])).toEqual({
      kind: 'variant',
      url: 'https://example.com/a/',
      status: 200,
    });
  });

  it('follows the order of the reasons, skipping one that names no URL', () => {
    expect(targetOf(['http_404', 'non_canonical', 'redirects'])?.kind).toBe('canonical');
    expect(targetOf(['redirects', 'non_canonical'], { redirect_url: null })?.kind).toBe('canonical');
    expect(targetOf(['noindex', 'unreached_by_crawl', 'server_error'])).toBeNull();
    expect(targetOf(['non_canonical'], { canonical: null })).toBeNull();
  });

  it('is offered as the replacement only when the crawl saw it answer 200, never for a loop or a pattern', () => {
    const offered = (reasons: string[], more: Partial<FindingRow> = {}) =>
      replacementOf(dtoOf(reasons, more));
    expect(offered(['redirects'])).toBeNull(); // it answers 404
    expect(offered(['redirects'], { target_status: 200 })).toBe('https://example.com/r');
    expect(offered(['non_canonical'])).toBeNull(); // it answers 301
    expect(offered(['non_canonical'], { canonical_status: null })).toBeNull(); // never crawled
    expect(offered(['url_variant'])).toBe('https://example.com/a/');
    expect(offered(['url_variant'], { variant_status: 301 })).toBeNull();
    expect(offered(['url_variant'], { variant_status: null })).toBeNull();
    expect(offered(['canonical_conflict', 'redirects'], { target_status: 200 })).toBeNull();
    expect(offered(['canonical_pattern', 'non_canonical'], { canonical_status: 200 })).toBeNull();
  });
});

describe('evidenceOf', () => {
  it('leaves every absent fact out', () => {
    expect(evidenceOf(findingRow(), '2026-11-01T00:00:00.000Z')).toEqual({});
  });

  it('shows a redirect with its target and what the target answers', () => {
    const row = findingRow({
      reason: 'redirects',
      status: 301,
      redirect_url: 'https://example.com/b',
      target_status: 200,
    });
    expect(evidenceOf(row, null)).toEqual({
      status: 301,
      redirectTarget: 'https://example.com/b',
      redirectTargetStatus: 200,
    });
  });

  it('shows the crawled URL only when it differs from the finding URL', () => {
    expect(evidenceOf(findingRow({ crawled_url: 'https://example.com/a' }), null)).toEqual({});
    expect(evidenceOf(findingRow({ crawled_url: 'https://example.com/A' }), null)).toEqual({
      crawledUrl: 'https://example.com/A',
    });
  });

  it('shows the canonical, whether it is declared and what it answers only for non_canonical findings', () => {
    const facts = { canonical: 'https://example.com/c', canonical_declared: false, canonical_status: 301 };
    expect(evidenceOf(findingRow({ ...facts, reasons: ['noindex'] }), null)).toEqual({});
    expect(evidenceOf(findingRow({ ...facts, reasons: ['redirects', 'non_canonical'] }), null)).toEqual({
      canonical: 'https://example.com/c',
      canonicalDeclared: false,
      canonicalStatus: 301,
    });
  });

  it('shows noindex and robots blocking only when true, indexability whenever known', () => {
    expect(
      evidenceOf(findingRow({ noindex: false, blocked_by_robots: false, indexable: false }), null),
    ).toEqual({
      indexable: false,
    });
    expect(evidenceOf(findingRow({ noindex: true, blocked_by_robots: true, indexable: true }), null)).toEqual(
      {
        indexable: true,
        noindex: true,
        blockedByRobots: true,
      },
    );
  });

  it('counts occurrences only when a URL is declared more than once, and keeps a depth of 0', () => {
    expect(evidenceOf(findingRow({ occurrences: 1, depth: 0 }), null)).toEqual({ depth: 0 });
    expect(evidenceOf(findingRow({ occurrences: 3 }), null)).toEqual({ occurrences: 3 });
  });

  it('gives the crawl time to newer_than_crawl findings only, when it is known', () => {
    const held = findingRow({ list: 'held', reason: 'newer_than_crawl', reasons: ['newer_than_crawl'] });
    expect(evidenceOf(held, '2026-11-01T00:00:00.000Z')).toEqual({ crawlTime: '2026-11-01T00:00:00.000Z' });
    expect(evidenceOf(held, null)).toEqual({});
    expect(evidenceOf(findingRow(), '2026-11-01T00:00:00.000Z')).toEqual({});
  });

  it('writes timestamps as ISO strings and keeps the documented key order', () => {
    const row = findingRow({
      list: 'add',
      reason: 'reachable_not_declared',
      status: 200,
      variant_url: 'https://example.com/a/',
      lastmod: new Date('2026-10-01T00:00:00Z'),
      section: 'example.com/blog',
      indexable: true,
      depth: 2,
      crawled_at: new Date('2026-11-02T03:04:05.678Z'),
    });
    const evidence = evidenceOf(row, null);
    expect(evidence).toEqual({
      status: 200,
      variantUrl: 'https://example.com/a/',
      lastmod: '2026-10-01T00:00:00.000Z',
      section: 'example.com/blog',
      indexable: true,
      depth: 2,
      crawledAt: '2026-11-02T03:04:05.678Z',
    });
    expect(Object.keys(evidence)).toEqual([
      'status',
      'variantUrl',
      'lastmod',
      'section',
      'indexable',
      'depth',
      'crawledAt',
    ]);
  });
});

describe('the latest spot-check of a row', () => {
  const check: LatestCheckRow = {
    finding_id: 42,
    run_id: 'run-1',
    verdict: 'changed',
    live_reason: 'redirects',
    final_status: 200,
    checked_at: new Date('2026-12-01T10:00:00.5Z'),
    chain: [
      { url: 'https://example.com/a', status: 301, location: '/b' },
      { url: 'https://example.com/b', status: 200, location: null },
    ],
    noindex: false,
    canonical: 'https://example.com/b',
    content_type: 'text/html',
    ms: 120,
    error: null,
    explanation: 'Now redirects to https://example.com/b',
  };

  it('gives the list its verdict, live reason, final status, time and run', () => {
    expect(toSpotCheck(check)).toEqual({
      verdict: 'changed',
      liveReason: 'redirects',
      finalStatus: 200,
      checkedAt: '2026-12-01T10:00:00.500Z',
      runId: 'run-1',
    });
    expect(toFindingDto(findingRow({}), null, { spotCheck: toSpotCheck(check) }).spotCheck?.verdict).toBe(
      'changed',
    );
  });

  it('gives the detail the hop chain in order and the evidence', () => {
    expect(toSpotCheckDetail(check)).toMatchObject({
      verdict: 'changed',
      chain: check.chain,
      noindex: false,
      canonical: 'https://example.com/b',
      contentType: 'text/html',
      ms: 120,
      error: null,
      explanation: 'Now redirects to https://example.com/b',
    });
  });

  it('is null for a row no finished run checked', () => {
    expect(toSpotCheck(undefined)).toBeNull();
    expect(toSpotCheckDetail(undefined)).toBeNull();
  });
});
