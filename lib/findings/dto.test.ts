import { describe, expect, it } from 'vitest';
import { findingRow } from '@/lib/test-support/finding-row';
import { toFindingDto } from './dto';
import { evidenceOf } from './evidence';

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
      status: 404,
      canonical: 'https://example.com/c',
      lastmod: '2026-11-01T10:00:00.250Z',
      sitemapFile: { id: 3, url: 'https://example.com/sitemap.xml', uploadName: null },
      decision: 'approved',
      decidedBy: 'rita@example.com',
      decidedAt: '2026-11-30T08:00:00.000Z',
      note: 'gone for good',
    });
  });

  it('falls back to the reason when a row has no reasons, and to no file', () => {
    const dto = toFindingDto(findingRow({ reason: 'redirects', reasons: null }), null);
    expect(dto.reasons).toEqual(['redirects']);
    expect(dto.sitemapFile).toBeNull();
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

  it('shows the canonical and whether it is declared only for non_canonical findings, false included', () => {
    const facts = { canonical: 'https://example.com/c', canonical_declared: false };
    expect(evidenceOf(findingRow({ ...facts, reasons: ['noindex'] }), null)).toEqual({});
    expect(evidenceOf(findingRow({ ...facts, reasons: ['redirects', 'non_canonical'] }), null)).toEqual({
      canonical: 'https://example.com/c',
      canonicalDeclared: false,
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
