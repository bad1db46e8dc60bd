// Two-crawl confirmation over real runs of one site: an unreached_by_crawl row gets the
// unreached_confirmed signal exactly when the site's previous complete audit had its key unreached too
// (partial runs are confirmed, but are never the "previous complete" one), the review filters by it, and
// the site setting requireConfirmedUnreached refuses approving unconfirmed rows, by ids and by filter.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as decideRoute } from '@/app/api/v1/audits/[id]/decisions/route';
import { GET as listRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { PATCH as patchSite } from '@/app/api/v1/sites/[id]/route';
import { pool } from '@/lib/db/client';
import type { FindingPage } from '@/lib/findings/schema';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';

const admin = await testCaller('admin');
const reviewer = await testCaller('reviewer');
const host = `${randomUUID().slice(0, 8)}.confirm.example`;
const at = (page: string) => `https://${host}/s/${page}`;
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

/** A run declaring `declared`, whose crawl reaches the section's index and `crawled` (200). */
function run(declared: string[], crawled: string[], partial = false): Promise<string> {
  const sitemaps: Record<string, string> = { 's.xml': urlsetXml(declared.map(at)) };
  if (partial) sitemaps['broken.xml'] = '<urlset><url><loc>https://x';
  return reconciledAuditOf(`confirm ${host}`, {
    sitemaps,
    crawl: ['', ...crawled].map((page) => JSON.stringify({ url: at(page), status: 200 })),
  });
}

/** Path → signals of the audit's unreached rows. */
async function unreached(auditId: string): Promise<Record<string, string[]>> {
  const { rows } = await pool().query<{ url: string; signals: string[] }>(
    `SELECT url, signals FROM findings WHERE audit_id = $1 AND reason = 'unreached_by_crawl' ORDER BY url`,
    [auditId],
  );
  return Object.fromEntries(rows.map((r) => [r.url.slice(at('').length), r.signals]));
}

let first = '';
let second = '';
let partial = '';
let siteId = '';

beforeAll(async () => {
  first = await run(['a', 'b', 'c'], []); // a, b, c unreached
  second = await run(['a', 'b', 'c', 'd'], ['b']); // a, c unreached again; d new; b reached
  partial = await run(['a', 'd', 'e'], [], true); // against second: a, d confirmed; e new
  const { rows } = await pool().query<{ site_id: string }>('SELECT site_id FROM audits WHERE id = $1', [
    first,
  ]);
  siteId = rows[0]?.site_id as string;
});

async function decide(auditId: string, body: unknown) {
  const res = await decideRoute(
    reviewer.request(`http://localhost/api/v1/audits/${auditId}/decisions`, {
      method: 'POST',
      body: JSON.stringify(body),
    }),
    ctx(auditId),
  );
  return { status: res.status, body: await res.json() };
}

async function setRule(on: boolean) {
  const res = await patchSite(
    admin.request(`http://localhost/api/v1/sites/${siteId}`, {
      method: 'PATCH',
      body: JSON.stringify({ settings: { requireConfirmedUnreached: on } }),
      headers: { 'content-type': 'application/json' },
    }),
    ctx(siteId),
  );
  expect(res.status).toBe(200);
}

async function idsOf(auditId: string): Promise<Map<string, number>> {
  const { rows } = await pool().query<{ id: number; url: string }>(
    'SELECT id, url FROM findings WHERE audit_id = $1',
    [auditId],
  );
  return new Map(rows.map((r) => [r.url.slice(at('').length), r.id]));
}

describe('the unreached_confirmed signal', () => {
  it("is set only where the previous complete audit had the key unreached too (partial runs included, but never another's previous)", async () => {
    expect(await unreached(first)).toEqual({ a: [], b: [], c: [] });
    expect(await unreached(second)).toEqual({
      a: ['unreached_confirmed'],
      c: ['unreached_confirmed'],
      d: [],
    });
    expect(await unreached(partial)).toEqual({
      a: ['unreached_confirmed'],
      d: ['unreached_confirmed'],
      e: [],
    });
    // The partial run is no one's previous complete audit: against second, e is new and c was unreached.
    const third = await run(['c', 'e'], []);
    expect(await unreached(third)).toEqual({ c: ['unreached_confirmed'], e: [] });
  });

  it('leaves the per-reason counts right', async () => {
    const { rows } = await pool().query<{ counted: number; actual: number }>(
      `SELECT (SELECT sum(n)::int FROM finding_counts WHERE audit_id = $1 AND reason = 'unreached_by_crawl') AS counted,
              (SELECT count(*)::int FROM findings WHERE audit_id = $1 AND reason = 'unreached_by_crawl') AS actual`,
      [second],
    );
    expect(rows[0]).toEqual({ counted: 3, actual: 3 });
  });

  it('filters the review (signal=unreached_confirmed)', async () => {
    const res = await listRoute(
      reviewer.request(
        `http://localhost/api/v1/audits/${second}/findings?list=prune&signal=unreached_confirmed`,
      ),
      ctx(second),
    );
    expect(res.status).toBe(200);
    const page: FindingPage = await res.json();
    expect(page.items.map((f) => f.url)).toEqual([at('a'), at('c')]);
    expect(page.items[0]?.signals).toContain('unreached_confirmed');
  });
});

describe('requireConfirmedUnreached', () => {
  it('refuses approving an unconfirmed unreached row, by ids or by filter, and lets confirmed ones through', async () => {
    const ids = await idsOf(second);
    await setRule(true);
    try {
      const one = await decide(second, { decision: 'approved', ids: [ids.get('d')] });
      expect(one.status).toBe(409);
      expect(one.body.error.message).toMatch(/^1 unreached_by_crawl row is not confirmed across two crawls/);
      const mixed = await decide(second, { decision: 'approved', ids: [ids.get('a'), ids.get('d')] });
      expect(mixed.status).toBe(409);
      const bulk = await decide(second, {
        decision: 'approved',
        filter: { list: 'prune', reason: 'unreached_by_crawl' },
      });
      expect(bulk.status).toBe(409);
      // Nothing was approved by the refusals.
      const { rows } = await pool().query(
        `SELECT 1 FROM findings WHERE audit_id = $1 AND decision = 'approved'`,
        [second],
      );
      expect(rows).toHaveLength(0);
      const confirmed = await decide(second, {
        decision: 'approved',
        filter: { list: 'prune', signal: 'unreached_confirmed' },
      });
      expect(confirmed).toMatchObject({ status: 200, body: { updated: 2 } });
      // Rejecting is never held back.
      expect(await decide(second, { decision: 'rejected', ids: [ids.get('d')] })).toMatchObject({
        status: 200,
      });
    } finally {
      await setRule(false);
    }
    // With the setting off, the same approval goes through.
    expect(await decide(second, { decision: 'approved', ids: [ids.get('d')] })).toMatchObject({
      status: 200,
      body: { updated: 1 },
    });
  });
});
