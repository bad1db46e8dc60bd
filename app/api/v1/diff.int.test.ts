// GET /api/v1/audits/{a}/diff/{b} through its route handler, over a crafted pair of
// real audits of one site that holds every type of difference once: its counts and items, one type at a
// time and all types a page at a time, and the refusals (another site's audit, an unknown one, a cursor).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '@/lib/db/client';
import type { AuditDiffDto, AuditDiffItem } from '@/lib/sites/schema';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf } from '@/lib/test-support/run-audit';
import { GET as diffRoute } from './audits/[id]/diff/[otherId]/route';

const viewer = await testCaller('viewer');
const host = `${randomUUID().slice(0, 8)}.diff.example`;
const at = (page: string) => `https://${host}/s/${page}`;
const CRAWLED_AT = '2026-12-01T00:00:00Z';

function sitemap(pages: Record<string, string | null>): string {
  const urls = Object.entries(pages).map(
    ([page, lastmod]) => `<url><loc>${at(page)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
}

function crawl(pages: Record<string, number | { redirect: string }>): string[] {
  return Object.entries(pages).map(([page, answer]) =>
    JSON.stringify(
      typeof answer === 'number'
        ? { url: at(page), status: answer, crawled_at: CRAWLED_AT }
        : { url: at(page), status: 301, redirect_url: at(answer.redirect), crawled_at: CRAWLED_AT },
    ),
  );
}

let from = '';
let to = '';

beforeAll(async () => {
  // from: fix unreached, rc a 404, was-add crawled but not declared (the add list).
  from = await reconciledAuditOf('diff from', {
    sitemaps: {
      's.xml': sitemap({
        keep: '2026-11-01',
        lm: '2026-11-01',
        gone: null,
        old: null,
        fix: null,
        fresh2: null,
        rc: null,
      }),
    },
    crawl: crawl({ keep: 200, lm: 200, gone: 200, old: 200, fresh2: 200, rc: 404, 'was-add': 200 }),
  });
  // to: lm's lastmod moves, gone and old are no longer declared (old redirects to target, declared anew),
  // fresh is new, fix is crawled now, fresh2 and was-add are unreached, rc is unreached instead of a 404.
  to = await reconciledAuditOf('diff to', {
    sitemaps: {
      's.xml': sitemap({
        keep: '2026-11-01',
        lm: '2026-11-20',
        fix: null,
        fresh2: null,
        rc: null,
        fresh: null,
        target: null,
        'was-add': null,
      }),
    },
    crawl: crawl({ keep: 200, lm: 200, fix: 200, old: { redirect: 'target' }, target: 200, fresh: 200 }),
  });
});

async function diff(a: string, b: string, query = ''): Promise<Response> {
  return diffRoute(viewer.request(`http://localhost/api/v1/audits/${a}/diff/${b}${query}`), {
    params: Promise.resolve({ id: a, otherId: b }),
  });
}

async function diffBody(query = ''): Promise<AuditDiffDto> {
  const res = await diff(from, to, query);
  expect(res.status).toBe(200);
  return res.json();
}

const item = (overrides: Partial<AuditDiffItem>): AuditDiffItem => ({
  type: 'url_added',
  url: '',
  target: null,
  fromList: null,
  fromReason: null,
  toList: null,
  toReason: null,
  previousLastmod: null,
  currentLastmod: null,
  ...overrides,
});

describe('GET /api/v1/audits/{a}/diff/{b}', () => {
  it('counts and lists every type of difference, in the stable order', async () => {
    const body = await diffBody();
    expect(body.from.id).toBe(from);
    expect(body.to.id).toBe(to);
    expect(body.counts).toEqual({
      url_added: 3,
      url_removed: 2,
      url_lastmod_changed: 1,
      new_problem: 2,
      fixed_problem: 1,
      reason_changed: 1,
      moved: 1,
    });
    expect(body.items).toEqual([
      item({ type: 'url_added', url: at('fresh') }),
      item({ type: 'url_added', url: at('target') }),
      item({ type: 'url_added', url: at('was-add') }),
      item({ type: 'url_removed', url: at('gone') }),
      item({ type: 'url_removed', url: at('old') }),
      item({
        type: 'url_lastmod_changed',
        url: at('lm'),
        previousLastmod: '2026-11-01T00:00:00.000Z',
        currentLastmod: '2026-11-20T00:00:00.000Z',
      }),
      item({
        type: 'new_problem',
        url: at('fresh2'),
        fromList: null,
        fromReason: null,
        toList: 'prune',
        toReason: 'unreached_by_crawl',
      }),
      item({
        type: 'new_problem',
        url: at('was-add'),
        fromList: 'add',
        fromReason: 'reachable_not_declared',
        toList: 'prune',
        toReason: 'unreached_by_crawl',
      }),
      item({
        type: 'fixed_problem',
        url: at('fix'),
        fromList: 'prune',
        fromReason: 'unreached_by_crawl',
      }),
      item({
        type: 'reason_changed',
        url: at('rc'),
        fromList: 'prune',
        fromReason: 'http_404',
        toList: 'prune',
        toReason: 'unreached_by_crawl',
      }),
      item({ type: 'moved', url: at('old'), target: at('target') }),
    ]);
    expect(body.nextCursor).toBeNull();
  });

  it('filters to one type, with the counts of all', async () => {
    const body = await diffBody('?type=moved');
    expect(body.items.map((i) => [i.type, i.url, i.target])).toEqual([['moved', at('old'), at('target')]]);
    expect(body.counts.url_added).toBe(3);
  });

  it('pages through all types and through one, never repeating or skipping a row', async () => {
    const all = (await diffBody()).items;
    const seen: AuditDiffItem[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditDiffDto = await diffBody(`?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(5);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    const first = await diffBody('?type=url_added&limit=2');
    expect(first.items).toHaveLength(2);
    const rest = await diffBody(`?type=url_added&limit=2&cursor=${first.nextCursor}`);
    expect(rest.items.map((i) => i.url)).toEqual([at('was-add')]);
    expect(rest.nextCursor).toBeNull();
  });

  it('is a diff in either direction: to → from swaps added and removed', async () => {
    const res = await diff(to, from, '?type=url_removed');
    const body: AuditDiffDto = await res.json();
    expect(body.counts).toMatchObject({ url_added: 2, url_removed: 3, moved: 0 });
  });

  it("refuses audits of different sites (400), an unknown audit (404) and another type's cursor (400)", async () => {
    const other = await reconciledAuditOf('another site', {
      sitemaps: { 's.xml': '<urlset><url><loc>https://other-site.diff.example/a</loc></url></urlset>' },
      crawl: [JSON.stringify({ url: 'https://other-site.diff.example/', status: 200 })],
    });
    const res = await diff(from, other);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/not of the same site/);
    expect((await diff(from, randomUUID())).status).toBe(404);
    expect((await diff(randomUUID(), to)).status).toBe(404);
    const page = await diffBody('?type=url_added&limit=1');
    expect((await diff(from, to, `?type=moved&cursor=${page.nextCursor}`)).status).toBe(400);
  });
});

describe('stored diffs', () => {
  const stored = async (a: string, b: string) =>
    (
      await pool().query<{ counts: Record<string, number>; rows: number }>(
        `SELECT d.counts, (SELECT count(*)::int FROM audit_diff_rows r
                            WHERE r.from_audit_id = d.from_audit_id AND r.to_audit_id = d.to_audit_id) AS rows
           FROM audit_diffs d WHERE d.from_audit_id = $1 AND d.to_audit_id = $2`,
        [a, b],
      )
    ).rows[0];

  it('stores the diff of two settled audits once and answers from it after', async () => {
    const first = await diffBody('?limit=3');
    const saved = await stored(from, to);
    const total = Object.values(first.counts).reduce((n, c) => n + c, 0);
    expect(saved?.rows).toBe(total);
    // What is stored is what is answered: a stored row and count changed by hand show in the next answer.
    await pool().query(
      `UPDATE audit_diff_rows SET url = 'https://changed.example/' WHERE from_audit_id = $1 AND to_audit_id = $2
          AND ord = 1 AND n = 1`,
      [from, to],
    );
    await pool().query(
      `UPDATE audit_diffs SET counts = counts || '{"moved": 99}' WHERE from_audit_id = $1 AND to_audit_id = $2`,
      [from, to],
    );
    const again = await diffBody('?limit=3');
    expect(again.items[0]?.url).toBe('https://changed.example/');
    expect(again.counts.moved).toBe(99);
    // Gone (e.g. with an audit: ON DELETE CASCADE), it is stored afresh on the next request.
    await pool().query('DELETE FROM audit_diffs WHERE from_audit_id = $1 AND to_audit_id = $2', [from, to]);
    expect(await diffBody('?limit=3')).toEqual(first);
    expect((await stored(from, to))?.rows).toBe(total);
  });

  it('diffs a run that is still going live, and stores nothing of it', async () => {
    await pool().query('DELETE FROM audit_diffs WHERE from_audit_id = $1 AND to_audit_id = $2', [to, from]);
    await pool().query(`UPDATE audits SET status = 'running', step = 'reconcile' WHERE id = $1`, [from]);
    try {
      const res = await diff(to, from);
      expect(res.status).toBe(200);
      expect(await stored(to, from)).toBeUndefined();
    } finally {
      await pool().query(`UPDATE audits SET status = 'succeeded', step = NULL WHERE id = $1`, [from]);
    }
  });
});
