// The two derivations of EVIDENCE agree: the CSV's detail, as Postgres computes it over a findings row,
// holds exactly the API evidence of that row (less the facts the detail never carried), value for value.
import { describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { findingRow } from '@/lib/test-support/finding-row';
import { EVIDENCE, evidenceDetailSql, evidenceOf } from './evidence';
import type { FindingRow } from './types';

/** The detail column Postgres computes for `row`, typed exactly as the findings table types it. */
async function detailInPostgres(row: FindingRow, crawlTime: string | null): Promise<string> {
  const { rows } = await pool().query<{ detail: string }>(
    `SELECT ${evidenceDetailSql('$2::text')} AS detail FROM jsonb_populate_record(NULL::findings, $1::jsonb) f`,
    [JSON.stringify(row), crawlTime],
  );
  return rows[0]?.detail ?? '';
}

/** The same pairs from the API's evidence object: instants to the second, the rest as text. */
function detailFromEvidence(evidence: Record<string, unknown>): string {
  return EVIDENCE.filter((field) => field.inDetail !== false && field.key in evidence)
    .map((field) => {
      const value = String(evidence[field.key]);
      return `${field.key}=${field.shown === 'instant' ? value.replace(/\.\d{3}Z$/, 'Z') : value}`;
    })
    .join('; ');
}

const CRAWL_TIME = '2026-11-01T00:00:00.000Z';

const ROWS: Record<string, FindingRow> = {
  'nothing known': findingRow(),
  'a redirect from another crawled URL': findingRow({
    reason: 'redirects',
    reasons: ['redirects'],
    status: 301,
    crawled_url: 'https://example.com/A',
    redirect_url: 'https://example.com/b',
    target_status: 404,
    depth: 0,
  }),
  'a non-canonical page whose canonical is not declared': findingRow({
    reason: 'non_canonical',
    reasons: ['non_canonical', 'noindex'],
    status: 200,
    crawled_url: 'https://example.com/a',
    canonical: 'https://example.com/c',
    canonical_declared: false,
    noindex: true,
    blocked_by_robots: false,
    indexable: false,
    crawled_at: new Date('2026-10-30T12:00:00.123Z'),
  }),
  'a canonical that only a non-canonical finding shows': findingRow({
    reason: 'noindex',
    reasons: ['noindex'],
    canonical: 'https://example.com/c',
    canonical_declared: true,
    noindex: true,
  }),
  'a held page newer than the crawl': findingRow({
    list: 'held',
    reason: 'newer_than_crawl',
    reasons: ['newer_than_crawl'],
    lastmod: new Date('2026-11-20T08:30:15.999Z'),
    occurrences: 2,
    section: 'example.com/news',
  }),
  'a variant declared once, blocked by robots': findingRow({
    reason: 'url_variant',
    reasons: ['url_variant', 'blocked_by_robots'],
    variant_url: 'https://example.com/a/',
    occurrences: 1,
    blocked_by_robots: true,
    lastmod: new Date('2026-09-01T00:00:00Z'),
  }),
};

describe('the evidence table', () => {
  it.each(Object.entries(ROWS))(
    'gives the same facts to the CSV detail and the API: %s',
    async (_name, row) => {
      for (const crawlTime of [CRAWL_TIME, null]) {
        expect(await detailInPostgres(row, crawlTime)).toBe(detailFromEvidence(evidenceOf(row, crawlTime)));
      }
    },
  );

  it('writes the detail the CSV export has always had', async () => {
    expect(
      await detailInPostgres(
        ROWS['a non-canonical page whose canonical is not declared'] as FindingRow,
        null,
      ),
    ).toBe('status=200; canonical=https://example.com/c; canonicalDeclared=false; noindex=true');
    expect(await detailInPostgres(ROWS['a held page newer than the crawl'] as FindingRow, CRAWL_TIME)).toBe(
      `lastmod=2026-11-20T08:30:15Z; crawlTime=${CRAWL_TIME}; section=example.com/news; occurrences=2`,
    );
  });

  it('is exercised for every fact the detail carries (the comparison is not vacuous)', async () => {
    const shown = new Set<string>();
    for (const row of Object.values(ROWS)) {
      for (const pair of (await detailInPostgres(row, CRAWL_TIME)).split('; '))
        shown.add(pair.split('=')[0] ?? '');
    }
    const inDetail = EVIDENCE.filter((field) => field.inDetail !== false).map((field) => field.key);
    expect([...shown].filter(Boolean).sort()).toEqual([...inDetail].sort());
  });
});
