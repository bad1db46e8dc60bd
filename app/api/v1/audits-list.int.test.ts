// GET /api/v1/audits through its route handler on real Postgres: per-audit counts from finding_counts,
// the reviewed share after real decisions, status and name filters (LIKE wildcards taken literally),
// and keyset paging over ~60 audits, ties in created_at included, with no gap and no repeat.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import type { AuditListItemDto, AuditPage } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf } from '@/lib/test-support/run-audit';
import { POST as decide } from './audits/[id]/decisions/route';
import { GET as list } from './audits/route';

const reviewer = await testCaller('reviewer');
const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1/audits';
// Every audit here carries this token in its name, so other tests' audits never enter the counts.
const token = `lst${randomUUID().slice(0, 8)}`;

async function page(params: Record<string, string>, caller = viewer) {
  const res = await list(caller.request(`${base}?${new URLSearchParams(params)}`), undefined);
  return { status: res.status, body: (await res.json()) as AuditPage & { error?: { message: string } } };
}

/** Every page of a query, following nextCursor. */
async function allPages(params: Record<string, string>): Promise<AuditListItemDto[][]> {
  const pages: AuditListItemDto[][] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await page({ ...params, ...(cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    pages.push(body.items);
    cursor = body.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}

const STATUSES = ['queued', 'running', 'succeeded', 'partial', 'failed', 'cancelled'] as const;
/** id → status, created_at order: newest last inserted. */
const made: { id: string; status: string; createdAt: Date }[] = [];
let reconciledId = '';

beforeAll(async () => {
  // 60 plain audits, two hours apart in threes that share a created_at (the id breaks the tie).
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 60; i++) {
    const id = randomUUID();
    const status = STATUSES[i % STATUSES.length] as string;
    const createdAt = new Date(start + Math.floor(i / 3) * 7_200_000);
    await insertAudit(id, `Audit ${i} ${token}`, { normalization: 'exact' }, []);
    await pool().query('UPDATE audits SET status = $2::text::"RunStatus", created_at = $3 WHERE id = $1', [
      id,
      status,
      createdAt,
    ]);
    made.push({ id, status, createdAt });
  }
  // A real reconciled audit (newest): 2 prune rows (one 404, one unreached), 1 add row.
  reconciledId = await reconciledAuditOf(`Reconciled ${token}`, {
    sitemaps: {
      'a.xml':
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://x.example/ok</loc></url><url><loc>https://x.example/gone</loc></url><url><loc>https://x.example/lost</loc></url></urlset>',
    },
    crawl: [
      JSON.stringify({ url: 'https://x.example/ok', status: 200, indexable: true }),
      JSON.stringify({ url: 'https://x.example/gone', status: 404 }),
      JSON.stringify({ url: 'https://x.example/new', status: 200, indexable: true }),
    ],
  });
  // Newest of this file's audits, but in the past: other files' tests count on theirs being the newest.
  await pool().query(`UPDATE audits SET created_at = '2026-06-01' WHERE id = $1`, [reconciledId]);
});

describe('GET /api/v1/audits', () => {
  it("counts each audit's findings per list and its reviewed share, following decisions", async () => {
    const first = await page({ q: `Reconciled ${token}` });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(1);
    const [item] = first.body.items;
    expect(item).toMatchObject({ id: reconciledId, status: 'succeeded', crawl: { rows: 3, given: true } });
    expect(item?.findings).toEqual({ prune: 2, add: 1, held: 0, decided: 0 });

    const { rows } = await pool().query<{ id: number }>(
      `SELECT id FROM findings WHERE audit_id = $1 AND list = 'prune' ORDER BY id`,
      [reconciledId],
    );
    const ids = rows.map((r) => r.id);
    const approved = await decide(
      reviewer.request(`${base}/${reconciledId}/decisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approved', ids }),
      }),
      { params: Promise.resolve({ id: reconciledId }) },
    );
    expect(approved.status).toBe(200);
    const after = await page({ q: `Reconciled ${token}` });
    expect(after.body.items[0]?.findings).toEqual({ prune: 2, add: 1, held: 0, decided: 2 });

    // An audit never reconciled has no findings, not zeros.
    const plain = await page({ q: `Audit 7 ${token}` });
    expect(plain.body.items[0]?.findings).toBeNull();
    expect(plain.body.items[0]?.crawl.given).toBe(false);
  });

  it('says why a failed audit failed: its message, else its first error; nothing for the others', async () => {
    // A token of their own: the other tests count the audits carrying `token`.
    const own = `why${randomUUID().slice(0, 8)}`;
    const [failed, withErrors, succeeded] = ['Failed A', 'Failed B', 'Fine'].map(() => randomUUID());
    for (const [id, name] of [
      [failed, 'Failed A'],
      [withErrors, 'Failed B'],
      [succeeded, 'Fine'],
    ] as const)
      await insertAudit(id ?? '', `${name} ${own}`, { normalization: 'exact' }, []);
    await pool().query(
      `UPDATE audits SET status = 'failed', error_message = $2, created_at = '2025-01-01' WHERE id = $1`,
      [failed, 'The worker stopped. It was restarted twice.'],
    );
    await pool().query(
      `UPDATE audits SET status = 'failed', errors = $2::jsonb, created_at = '2025-01-01' WHERE id = $1`,
      [withErrors, JSON.stringify([{ code: 'http_error', message: 'sitemap.xml answered HTTP 404' }])],
    );
    await pool().query(
      `UPDATE audits SET status = 'succeeded', error_message = 'stale', created_at = '2025-01-01' WHERE id = $1`,
      [succeeded],
    );
    const byName = async (name: string) => (await page({ q: `${name} ${own}` })).body.items[0]?.failure;
    expect(await byName('Failed A')).toBe('The worker stopped. It was restarted twice.');
    expect(await byName('Failed B')).toBe('sitemap.xml answered HTTP 404');
    expect(await byName('Fine')).toBeNull();
  });

  it('filters by status', async () => {
    for (const status of ['failed', 'succeeded'] as const) {
      const pages = await allPages({ q: token, status, limit: '4' });
      const items = pages.flat();
      const expected = made.filter((a) => a.status === status).length + (status === 'succeeded' ? 1 : 0);
      expect(items).toHaveLength(expected);
      expect(items.every((a) => a.status === status)).toBe(true);
      expect((await page({ q: token, status })).body.total).toBe(expected);
    }
    const bad = await page({ status: 'done' });
    expect(bad.status).toBe(400);
  });

  it('searches names in any case, taking % and _ literally', async () => {
    const names = [`100% ${token}`, `1000 ${token}`, `a_b ${token}`, `axb ${token}`];
    for (const name of names) {
      const id = randomUUID();
      await insertAudit(id, name, { normalization: 'exact' }, []);
      await pool().query(`UPDATE audits SET created_at = '2025-12-31' WHERE id = $1`, [id]);
    }
    const namesOf = async (q: string) =>
      (await page({ q, limit: '100' })).body.items.map((a) => a.name).sort();
    expect(await namesOf(`100% ${token}`.toUpperCase())).toEqual([`100% ${token}`]);
    expect(await namesOf(`a_b ${token}`)).toEqual([`a_b ${token}`]);
    expect(await namesOf(`1__0 ${token}`)).toEqual([]);
    expect(await namesOf(token.toUpperCase())).toHaveLength(Math.min(100, 61 + names.length));
    expect((await page({ q: `\\${token}` })).body.total).toBe(0);
  });

  it('pages newest first by (created_at, id) with no gap and no repeat, 25 by default', async () => {
    const byDefault = await page({ q: token });
    expect(byDefault.body.items).toHaveLength(25);
    expect(byDefault.body.nextCursor).toBe(byDefault.body.items[24]?.id);

    const pages = await allPages({ q: token, limit: '7' });
    const items = pages.flat();
    expect(items).toHaveLength(byDefault.body.total);
    expect(new Set(items.map((a) => a.id)).size).toBe(items.length);
    expect(pages.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    // Three audits share each created_at: the id decides among them, as on every page boundary.
    const expected = [...made]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((a) => a.id);
    expect(items.filter((a) => a.name.startsWith('Audit ')).map((a) => a.id)).toEqual(expected);
    expect(items[0]?.id).toBe(reconciledId);
  });

  it('refuses a limit over 100 and a cursor that is not an audit', async () => {
    expect((await page({ limit: '101' })).status).toBe(400);
    expect((await page({ limit: '100' })).status).toBe(200);
    expect((await page({ cursor: 'nope' })).status).toBe(400);
    const gone = await page({ cursor: randomUUID() });
    expect(gone.status).toBe(400);
    expect(gone.body.error?.message).toMatch(/deleted/);
  });
});
