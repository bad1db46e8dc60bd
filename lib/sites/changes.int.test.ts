// Change events over scripted sequences of real audits of one site: each audit is
// ingested and reconciled as the worker does, and its settling writes the events (lib/sites/settle.ts).
// The 100,000-URL site is written straight into the entries partitions with one INSERT … SELECT each and
// settled the same way, so the test times the SQL of the events, not an XML parse.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import { pool, transaction } from '@/lib/db/client';
import { createAttachedPartition } from '@/lib/db/partitions';
import { reconciledAuditOf, runAuditStep } from '@/lib/test-support/run-audit';
import { settleSiteRun } from './settle';

/** A host no other test uses: its audits are a site of their own. */
function newHost(): string {
  return `${randomUUID().slice(0, 8)}.changes.example`;
}

/** A urlset of path → lastmod (null: none) on `host`. */
function urlset(host: string, pages: Record<string, string | null>): string {
  const urls = Object.entries(pages).map(
    ([page, lastmod]) =>
      `<url><loc>https://${host}/${page}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
}

/** The crawl export of every run: the home page alone (an empty export would be a failed source). */
const crawlOf = (host: string) => [JSON.stringify({ url: `https://${host}/`, status: 200 })];

/** A complete run of the site declaring `pages`. */
async function completeRun(host: string, pages: Record<string, string | null>): Promise<string> {
  const id = await reconciledAuditOf(`run of ${host}`, {
    sitemaps: { 's.xml': urlset(host, pages) },
    crawl: crawlOf(host),
  });
  expect(await statusOf(id)).toBe('succeeded');
  return id;
}

/** A partial run: `pages` read, and a second file that fails (unclosed tags). */
async function partialRun(host: string, pages: Record<string, string | null>): Promise<string> {
  const id = await reconciledAuditOf(`partial run of ${host}`, {
    sitemaps: { 's.xml': urlset(host, pages), 'broken.xml': '<urlset><url><loc>https://x' },
    crawl: crawlOf(host),
  });
  expect(await statusOf(id)).toBe('partial');
  return id;
}

/** A run that read its sitemaps and crawl, then failed in its reconcile step: it never settles. */
async function failedRun(host: string, pages: Record<string, string | null>): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'failed-run-'));
  writeFileSync(path.join(dir, 's.xml'), urlset(host, pages));
  writeFileSync(path.join(dir, 'c.jsonl'), crawlOf(host).join('\n'));
  const id = randomUUID();
  await insertAudit(id, `failed run of ${host}`, { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'upload', fileName: 's.xml', storedPath: path.join(dir, 's.xml') },
    { role: 'crawl', kind: 'upload', fileName: 'c.jsonl', storedPath: path.join(dir, 'c.jsonl') },
  ]);
  await runAuditStep('ingest', id);
  await pool().query(`UPDATE audits SET status = 'failed', finished_at = now() WHERE id = $1`, [id]);
  return id;
}

async function statusOf(auditId: string): Promise<string> {
  const { rows } = await pool().query<{ status: string }>('SELECT status::text FROM audits WHERE id = $1', [
    auditId,
  ]);
  return rows[0]?.status ?? '';
}

async function siteOf(auditId: string): Promise<string> {
  const { rows } = await pool().query<{ site_id: string }>('SELECT site_id FROM audits WHERE id = $1', [
    auditId,
  ]);
  const id = rows[0]?.site_id;
  if (!id) throw new Error('the audit has no site');
  return id;
}

interface Event {
  type: string;
  url: string;
  previous: string | null;
  current: string | null;
  previousAuditId: string | null;
}

async function eventsOf(auditId: string): Promise<Event[]> {
  const { rows } = await pool().query<Event>(
    `SELECT type, url, previous_lastmod::text AS previous, current_lastmod::text AS current,
            previous_audit_id AS "previousAuditId"
       FROM site_changes WHERE audit_id = $1 ORDER BY type, url`,
    [auditId],
  );
  return rows;
}

/** The site's state: path → pending (the audit whose run first missed it) or null. */
async function stateOf(siteId: string): Promise<Record<string, string | null>> {
  const { rows } = await pool().query<{ loc: string; missing: string | null }>(
    'SELECT loc, missing_since_audit_id AS missing FROM site_urls WHERE site_id = $1 ORDER BY loc',
    [siteId],
  );
  return Object.fromEntries(rows.map((r) => [new URL(r.loc).pathname.slice(1), r.missing]));
}

async function siteRow(siteId: string) {
  const { rows } = await pool().query<{ last: string | null; state_at: Date | null }>(
    'SELECT last_complete_audit_id AS last, state_at FROM sites WHERE id = $1',
    [siteId],
  );
  return rows[0];
}

const D1 = '2026-11-01T00:00:00Z';
const D2 = '2026-11-20T00:00:00Z';

describe('change events between complete runs', () => {
  it('the first complete run is a quiet baseline', async () => {
    const host = newHost();
    const first = await completeRun(host, { a: D1, b: null });
    const site = await siteOf(first);
    expect(await eventsOf(first)).toEqual([]);
    expect(await stateOf(site)).toEqual({ a: null, b: null });
    expect((await siteRow(site))?.last).toBe(first);
    expect((await siteRow(site))?.state_at).not.toBeNull();
  });

  it('writes added, lastmod changed (previous and current), and a removal pending then confirmed', async () => {
    const host = newHost();
    const first = await completeRun(host, { a: D1, b: D1, c: null, d: D1 });
    const site = await siteOf(first);
    const second = await completeRun(host, { a: D1, b: D2, c: D1, e: null });
    expect(await eventsOf(second)).toEqual([
      { type: 'url_added', url: `https://${host}/e`, previous: null, current: null, previousAuditId: first },
      {
        type: 'url_lastmod_changed',
        url: `https://${host}/b`,
        previous: '2026-11-01 00:00:00+00',
        current: '2026-11-20 00:00:00+00',
        previousAuditId: first,
      },
      {
        type: 'url_lastmod_changed',
        url: `https://${host}/c`,
        previous: null,
        current: '2026-11-01 00:00:00+00',
        previousAuditId: first,
      },
      {
        type: 'url_removed_pending',
        url: `https://${host}/d`,
        previous: '2026-11-01 00:00:00+00',
        current: null,
        previousAuditId: first,
      },
    ]);
    expect(await stateOf(site)).toEqual({ a: null, b: null, c: null, d: second, e: null });
    // The second miss confirms the removal and drops the URL from the state; nothing else changed.
    const third = await completeRun(host, { a: D1, b: D2, c: D1, e: null });
    expect(await eventsOf(third)).toEqual([
      {
        type: 'url_removed_confirmed',
        url: `https://${host}/d`,
        previous: '2026-11-01 00:00:00+00',
        current: null,
        previousAuditId: second,
      },
    ]);
    expect(await stateOf(site)).toEqual({ a: null, b: null, c: null, e: null });
    // Gone for good: a fourth run missing it again says nothing.
    expect(await eventsOf(await completeRun(host, { a: D1, b: D2, c: D1, e: null }))).toEqual([]);
  });

  it('a URL that returns in between clears its pending removal (no confirmation later)', async () => {
    const host = newHost();
    const first = await completeRun(host, { a: D1, b: D1 });
    const site = await siteOf(first);
    const second = await completeRun(host, { a: D1 });
    expect((await eventsOf(second)).map((e) => e.type)).toEqual(['url_removed_pending']);
    // b returns, with a new lastmod: that change counts, the return itself is no event.
    const third = await completeRun(host, { a: D1, b: D2 });
    expect((await eventsOf(third)).map((e) => [e.type, e.url])).toEqual([
      ['url_lastmod_changed', `https://${host}/b`],
    ]);
    expect(await stateOf(site)).toEqual({ a: null, b: null });
    // Missing again later starts over: pending, not confirmed.
    const fourth = await completeRun(host, { a: D1 });
    expect((await eventsOf(fourth)).map((e) => e.type)).toEqual(['url_removed_pending']);
  });

  it('a partial run writes no events, advances no removal and leaves the state alone', async () => {
    const host = newHost();
    const first = await completeRun(host, { a: D1, b: D1, c: D1 });
    const site = await siteOf(first);
    const second = await completeRun(host, { a: D1, b: D1 });
    expect((await eventsOf(second)).map((e) => e.type)).toEqual(['url_removed_pending']);
    // Partial: misses b (a second miss would confirm c), changes a's lastmod, adds z.
    const partial = await partialRun(host, { a: D2, z: null });
    expect(await siteOf(partial)).toBe(site);
    expect(await eventsOf(partial)).toEqual([]);
    expect(await stateOf(site)).toEqual({ a: null, b: null, c: second });
    expect((await siteRow(site))?.last).toBe(second);
    // The next complete run diffs against the last complete state (second), not the partial one.
    const third = await completeRun(host, { a: D1, b: D1, c: D1 });
    expect(await eventsOf(third)).toEqual([]);
    expect(await stateOf(site)).toEqual({ a: null, b: null, c: null });
    expect((await siteRow(site))?.last).toBe(third);
  });

  it('a failed run never settles: the next complete run diffs against the last complete one', async () => {
    const host = newHost();
    const first = await completeRun(host, { a: D1, b: D1 });
    const site = await siteOf(first);
    await failedRun(host, { a: D2 });
    const second = await completeRun(host, { a: D1, c: null });
    expect((await eventsOf(second)).map((e) => [e.type, e.url, e.previousAuditId])).toEqual([
      ['url_added', `https://${host}/c`, first],
      ['url_removed_pending', `https://${host}/b`, first],
    ]);
    expect((await siteRow(site))?.last).toBe(second);
  });

  it('leaves out keys too long for the state (over 2,000 bytes): the run still settles', async () => {
    const host = newHost();
    const long = `x-${'é'.repeat(1400)}`;
    const first = await completeRun(host, { a: D1, [long]: null });
    const site = await siteOf(first);
    expect(await stateOf(site)).toEqual({ a: null });
    expect(await eventsOf(await completeRun(host, { a: D1, b: null, [long]: D1 }))).toMatchObject([
      { type: 'url_added', url: `https://${host}/b` },
    ]);
  });

  it('is idempotent: settling a run again writes nothing', async () => {
    const host = newHost();
    const first = await completeRun(host, { a: D1 });
    const site = await siteOf(first);
    const second = await completeRun(host, { b: D1 });
    const before = await eventsOf(second);
    expect(before.map((e) => e.type)).toEqual(['url_added', 'url_removed_pending']);
    const state = await stateOf(site);
    await transaction((client) => settleSiteRun(client, second, 'succeeded'));
    expect(await eventsOf(second)).toEqual(before);
    expect(await stateOf(site)).toEqual(state);
  });
});

/** A run of `siteId` declaring `https://<host>/p-<n>` for n in [from, to), lastmod day `day` except for
 * n in [changedFrom, changedTo) (the next day): entries written into its partition with one statement. */
async function syntheticRun(
  siteId: string,
  host: string,
  urls: { from: number; to: number; changedFrom?: number; changedTo?: number },
): Promise<string> {
  const id = randomUUID();
  await insertAudit(id, `synthetic run of ${host}`, { normalization: 'exact' }, []);
  await pool().query(`UPDATE audits SET site_id = $2, status = 'succeeded' WHERE id = $1`, [id, siteId]);
  await createAttachedPartition('sitemap_entries', id);
  await pool().query(
    `INSERT INTO sitemap_entries (audit_id, file_id, position, loc, key, lastmod)
     SELECT $1, 1, n, 'https://' || $2 || '/p-' || n, $2 || '/p-' || n,
            CASE WHEN n >= $5 AND n < $6 THEN '2026-11-02'::timestamptz ELSE '2026-11-01'::timestamptz END
       FROM generate_series($3::int, $4::int - 1) n`,
    [id, host, urls.from, urls.to, urls.changedFrom ?? 0, urls.changedTo ?? 0],
  );
  await transaction((client) => settleSiteRun(client, id, 'succeeded'));
  return id;
}

describe('a 100,000-URL site', () => {
  it('computes 1,000 added, 1,000 removed and 1,000 changed lastmods in SQL, in a few seconds', async () => {
    const host = newHost();
    const { rows } = await pool().query<{ id: string }>(
      `INSERT INTO sites (host, name) VALUES ($1, $1) RETURNING id`,
      [host],
    );
    const siteId = rows[0]?.id as string;
    await syntheticRun(siteId, host, { from: 0, to: 100_000 });
    expect(await pool().query('SELECT 1 FROM site_urls WHERE site_id = $1', [siteId])).toHaveProperty(
      'rowCount',
      100_000,
    );
    const started = performance.now();
    // p-0 … p-999 gone, p-100000 … p-100999 new, p-50000 … p-50999 with the next day's lastmod.
    const second = await syntheticRun(siteId, host, {
      from: 1_000,
      to: 101_000,
      changedFrom: 50_000,
      changedTo: 51_000,
    });
    const seconds = (performance.now() - started) / 1000;
    const { rows: counts } = await pool().query<{ type: string; n: number }>(
      'SELECT type, count(*)::int AS n FROM site_changes WHERE audit_id = $1 GROUP BY type ORDER BY type',
      [second],
    );
    expect(counts).toEqual([
      { type: 'url_added', n: 1_000 },
      { type: 'url_lastmod_changed', n: 1_000 },
      { type: 'url_removed_pending', n: 1_000 },
    ]);
    const { rows: state } = await pool().query<{ n: number; pending: number }>(
      `SELECT count(*)::int AS n, count(missing_since_audit_id)::int AS pending FROM site_urls WHERE site_id = $1`,
      [siteId],
    );
    expect(state[0]).toEqual({ n: 101_000, pending: 1_000 });
    // Rows in memory would take far longer than this over 100,000 URLs (the statement count is fixed).
    expect(seconds).toBeLessThan(15);
  });
});
