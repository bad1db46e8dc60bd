import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import { HELD_REASONS } from '@/lib/findings/schema';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { sampleFindings } from './data';
import { allocateSample } from './sample';

let auditId = '';
/** finding id → [list, reason, host] */
let findings = new Map<number, [string, string, string]>();

/** 400 declared pages under /shop on two hosts: most unreached, 404s, one 410, redirects, canonicals elsewhere,
 * one noindex, 503s (held) and pages of a section the crawl never entered (held); 6 undeclared pages (add). */
async function reconciledAudit(): Promise<string> {
  const declared: string[] = [];
  const crawl: string[] = [];
  const row = (url: string, more: Record<string, unknown> = {}) =>
    crawl.push(JSON.stringify({ url, status: 200, crawled_at: '2026-11-01T00:00:00Z', ...more }));
  for (let i = 1; i <= 400; i++) {
    const url = `https://${i % 2 ? 'a' : 'b'}.example/shop/item-${i}`;
    declared.push(url);
    if (i % 10 === 0) row(url, { status: 404 });
    else if (i === 7) row(url, { status: 410 });
    else if (i % 25 === 3) row(url, { status: 301, redirect_url: `https://a.example/moved/${i}` });
    else if (i % 50 === 9) row(url, { canonical_url: `https://a.example/shop/item-${i + 1}` });
    else if (i === 11) row(url, { noindex: true });
    else if (i % 40 === 13) row(url, { status: 503 });
    else if (i % 3 === 0) row(url);
  }
  for (let i = 1; i <= 12; i++) declared.push(`https://a.example/never/page-${i}`);
  for (let i = 1; i <= 6; i++) row(`https://a.example/shop/undeclared-${i}`);
  return reconciledAuditOf('Spot-check sample', { sitemaps: { 's.xml': urlsetXml(declared) }, crawl });
}

beforeAll(async () => {
  auditId = await reconciledAudit();
  const { rows } = await pool().query<{ id: number; list: string; reason: string; host: string }>(
    'SELECT id, list, reason, host FROM findings WHERE audit_id = $1',
    [auditId],
  );
  findings = new Map(rows.map((r) => [r.id, [r.list, r.reason, r.host]]));
});

function countsOf(list: string, host?: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [l, reason, h] of findings.values()) {
    if (l === list && (host === undefined || h === host)) counts[reason] = (counts[reason] ?? 0) + 1;
  }
  return counts;
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('sampleFindings', () => {
  it('is not vacuous: the audit has rare and common prune reasons and held rows of two reasons', () => {
    const prune = countsOf('prune');
    expect(prune).toMatchObject({ http_410: 1, noindex: 1 });
    expect(prune.unreached_by_crawl).toBeGreaterThan(150);
    expect(Object.keys(prune).sort()).toEqual([
      'http_404',
      'http_410',
      'noindex',
      'non_canonical',
      'redirects',
      'unreached_by_crawl',
    ]);
    expect(Object.keys(countsOf('held')).sort()).toEqual(['section_not_crawled', 'server_error']);
  });

  it('takes n prune rows stratified by reason, each reason at least once, in id order', async () => {
    const sample = await sampleFindings(auditId, { list: 'prune' }, 50, 42);
    expect(sample).toHaveLength(50);
    const byReason: Record<string, number> = {};
    for (const { id, reason } of sample) {
      expect(findings.get(id)?.slice(0, 2)).toEqual(['prune', reason]);
      byReason[reason] = (byReason[reason] ?? 0) + 1;
    }
    expect(byReason).toEqual(allocateSample(countsOf('prune'), 50));
    expect(Object.keys(byReason)).toHaveLength(6);
    expect(new Set(ids(sample)).size).toBe(50);
    expect(ids(sample)).toEqual([...ids(sample)].sort((a, b) => a - b));
  });

  it('repeats with the same seed and differs with another', async () => {
    const first = ids(await sampleFindings(auditId, { list: 'prune' }, 50, 42));
    const again = ids(await sampleFindings(auditId, { list: 'prune' }, 50, 42));
    const other = ids(await sampleFindings(auditId, { list: 'prune' }, 50, 43));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // Not a shifted copy: the two samples of the common reason mostly differ.
    expect(other.filter((id) => first.includes(id)).length).toBeLessThan(35);
  });

  it('takes only the list asked for', async () => {
    const held = await sampleFindings(auditId, { list: 'held' }, 10, 7);
    expect(held).toHaveLength(10);
    for (const { id } of held) expect(findings.get(id)?.[0]).toBe('held');
    expect(new Set(held.map((r) => r.reason))).toEqual(new Set(['section_not_crawled', 'server_error']));
    expect(held.every((r) => (HELD_REASONS as readonly string[]).includes(r.reason))).toBe(true);
  });

  it('takes every row when there are fewer than n', async () => {
    const add = await sampleFindings(auditId, { list: 'add' }, 50, 1);
    expect(add).toHaveLength(6);
    expect(add.every((r) => r.reason === 'reachable_not_declared')).toBe(true);
    expect(await sampleFindings(auditId, { list: 'add', reason: 'no_such_reason' }, 50, 1)).toEqual([]);
  });

  it('keeps to the rest of the filter', async () => {
    const sample = await sampleFindings(auditId, { list: 'prune', host: 'b.example' }, 20, 5);
    expect(sample).toHaveLength(20);
    for (const { id } of sample) expect(findings.get(id)?.[2]).toBe('b.example');
    expect(sample.map((r) => r.reason).sort()).toEqual(
      Object.entries(allocateSample(countsOf('prune', 'b.example'), 20))
        .flatMap(([reason, n]) => Array(n).fill(reason))
        .sort(),
    );
  });
});
