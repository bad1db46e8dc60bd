// Sites through their real route handlers, database and queue: an audit joins the site of its host (at
// creation for sitemap URLs, when it settles for uploads), the list and one site with its runs' figures,
// PATCH of the settings, and Run again (URL sources fetched afresh, uploads copied, the crawl export
// replaced by a new upload, one run at a time per site).

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditDto } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import type { SiteDetailDto, SitePage } from '@/lib/sites/schema';
import { openStored, storage } from '@/lib/storage/store';
import { testCaller } from '@/lib/test-support/auth';
import { MULTIPART, multipartBody, part } from '@/lib/test-support/multipart';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { GET as getAudit } from './audits/[id]/route';
import { POST as createAudit } from './audits/route';
import { GET as getSite, PATCH as patchSite } from './sites/[id]/route';
import { POST as runAgain } from './sites/[id]/runs/route';
import { GET as listSites } from './sites/route';

const admin = await testCaller('admin');
const reviewer = await testCaller('reviewer');
const viewer = await testCaller('viewer');
const base = 'http://localhost/api/v1';
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

// A site served from 127.0.0.1 on a port of its own: its host (127.0.0.1:<port>) is a site no other test has.
let server: http.Server;
let origin = '';
let host = '';
let locs: string[] = [];
let requests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/sitemap.xml') {
      requests++;
      res.writeHead(200, { 'content-type': 'application/xml' }).end(urlsetXml(locs));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin = `http://${host}`;
  locs = [`${origin}/a`, `${origin}/b`, `${origin}/c`];
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await stopBoss();
});

async function audit(id: string): Promise<AuditDto> {
  const res = await getAudit(viewer.request(`${base}/audits/${id}`), ctx(id));
  expect(res.status).toBe(200);
  return res.json();
}

async function site(id: string): Promise<SiteDetailDto> {
  const res = await getSite(viewer.request(`${base}/sites/${id}`), ctx(id));
  expect(res.status).toBe(200);
  return res.json();
}

async function again(siteId: string, body: object | Uint8Array<ArrayBuffer> | null, caller = reviewer) {
  const init: RequestInit =
    body instanceof Uint8Array
      ? { method: 'POST', body, headers: { 'content-type': MULTIPART } }
      : body === null
        ? { method: 'POST' }
        : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await runAgain(caller.request(`${base}/sites/${siteId}/runs`, init), ctx(siteId));
  return { status: res.status, body: await res.json() };
}

async function finish(id: string) {
  await runAuditStep('ingest', id);
  await runAuditStep('reconcile', id);
  await runAuditStep('site_history', id);
}

describe('sites of URL audits', () => {
  let siteId = '';
  let firstId = '';

  it('puts an audit of sitemap URLs in the site of its host when it is created', async () => {
    const res = await createAudit(
      reviewer.request(`${base}/audits`, {
        method: 'POST',
        body: JSON.stringify({ name: 'Site run 1', sitemapUrls: [`${origin}/sitemap.xml`] }),
        headers: { 'content-type': 'application/json' },
      }),
      undefined,
    );
    expect(res.status).toBe(202);
    firstId = (await res.json()).id;
    const created = await audit(firstId);
    expect(created.siteId).toEqual(expect.any(String));
    expect(created).toMatchObject({ trigger: 'manual', rerunOf: null, complete: false, reusedFiles: 0 });
    siteId = created.siteId ?? '';
    expect(created.site).toEqual({ id: siteId, host, settings: { requireConfirmedUnreached: false } });
    await finish(firstId);
    expect(await audit(firstId)).toMatchObject({ status: 'succeeded', complete: true });
  });

  it('lists the site with its newest run and finds it by host', async () => {
    const res = await listSites(viewer.request(`${base}/sites?q=${encodeURIComponent(host)}`), undefined);
    const page: SitePage = await res.json();
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id: siteId,
      host,
      name: host,
      runCount: 1,
      activeRun: null,
      lastCompleteAuditId: firstId,
      latestRun: { id: firstId, status: 'succeeded', complete: true, declaredUrls: 3, trigger: 'manual' },
    });
  });

  it('runs again: the URLs are fetched afresh, one run at a time', async () => {
    const before = requests;
    const { status, body } = await again(siteId, null);
    expect(status).toBe(202);
    expect(body).toMatchObject({ status: 'queued', siteId, rerunOf: firstId });
    // While it is queued, another is refused with a message naming it.
    const refused = await again(siteId, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(body.id);
    expect(refused.body.error.message).toMatch(/one run at a time/);

    locs = [...locs, `${origin}/d`];
    await finish(body.id);
    expect(requests).toBe(before + 1);
    const rerun = await audit(body.id);
    expect(rerun).toMatchObject({ siteId, trigger: 'rerun', rerunOf: firstId, complete: true });
    expect(rerun.sitemap.uniqueUrls).toBe(4);
    expect(rerun.name).toMatch(/^Site run 1 — \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);

    const detail = await site(siteId);
    expect(detail.runs.map((r) => [r.id, r.trigger, r.declaredUrls])).toEqual([
      [body.id, 'rerun', 4],
      [firstId, 'manual', 3],
    ]);
    // Free again once it finished.
    expect(detail.activeRun).toBeNull();
  });

  it('refuses what cannot be run again', async () => {
    expect((await again(randomUUID(), {})).status).toBe(404);
    expect((await again(siteId, { fromAuditId: randomUUID() })).status).toBe(404);
    expect((await again(siteId, {}, viewer)).status).toBe(403);
    const other = await reconciledAuditOf('Other site', {
      sitemaps: { 'o.xml': urlsetXml([`https://other-${randomUUID().slice(0, 8)}.example/x`]) },
      crawl: [],
    });
    const wrong = await again(siteId, { fromAuditId: other });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/another site/);
  });
});

describe('sites of uploaded audits', () => {
  const uploadHost = `up-${randomUUID().slice(0, 8)}.example`;
  const url = (p: string) => `https://${uploadHost}/${p}`;

  it('joins the site of its first declared URL when it settles, and runs again with a new crawl export', async () => {
    const first = await reconciledAuditOf('Uploaded', {
      sitemaps: { 'u.xml': urlsetXml([url('one'), url('two'), url('three')]) },
      crawl: [JSON.stringify({ url: url('one'), status: 200 })],
    });
    const settled = await audit(first);
    expect(settled.siteId).toEqual(expect.any(String));
    const siteId = settled.siteId ?? '';
    const detail = await site(siteId);
    expect(detail.host).toBe(uploadHost);
    // The figures of the trend: per list and reason, as the findings counted them.
    const { rows } = await pool().query<{ list: string; reason: string; n: number }>(
      'SELECT list, reason, sum(n)::int AS n FROM finding_counts WHERE audit_id = $1 GROUP BY list, reason',
      [first],
    );
    const run = detail.runs[0];
    expect(run?.findings?.prune.total).toBe(2);
    for (const row of rows) {
      const list = run?.findings?.[row.list as 'prune' | 'add' | 'held'];
      expect(list?.byReason[row.reason]).toBe(row.n);
    }

    const crawl = [url('one'), url('two'), url('three')].map((u) => JSON.stringify({ url: u, status: 200 }));
    const { status, body } = await again(
      siteId,
      multipartBody(part('fromAuditId', first), part('crawl', crawl.join('\n'), 'december.jsonl')),
    );
    expect(status).toBe(202);
    const sources = await pool().query<{ role: string; file_name: string; stored_path: string }>(
      'SELECT role, file_name, stored_path FROM audit_sources WHERE audit_id = $1 ORDER BY id',
      [body.id],
    );
    const old = await pool().query<{ stored_path: string }>(
      "SELECT stored_path FROM audit_sources WHERE audit_id = $1 AND role = 'sitemap'",
      [first],
    );
    expect(sources.rows.map((s) => [s.role, s.file_name])).toEqual([
      ['sitemap', 'u.xml'],
      ['crawl', 'december.jsonl'],
    ]);
    // The upload is a copy of its own (deleting the first audit must not take it away).
    const copied = sources.rows[0]?.stored_path ?? '';
    expect(copied).not.toBe(old.rows[0]?.stored_path);
    expect(copied).toContain(body.id);
    const text = async (ref: string) => (await buffer(await openStored(ref))).toString('utf8');
    expect(await text(copied)).toBe(await text(old.rows[0]?.stored_path ?? ''));
    expect(await (await storage()).exists(sources.rows[1]?.stored_path ?? '')).toBe(true);

    await finish(body.id);
    const rerun = await audit(body.id);
    expect(rerun).toMatchObject({ status: 'succeeded', siteId, crawl: { rows: 3 } });
    expect((await site(siteId)).runs[0]?.findings?.prune.total).toBe(0);
  });
});

describe('PATCH /api/v1/sites/{id}', () => {
  it('lets admins rename a site and change its settings, and nobody else', async () => {
    const id = await reconciledAuditOf('Patch', {
      sitemaps: { 'p.xml': urlsetXml([`https://patch-${randomUUID().slice(0, 8)}.example/p`]) },
      crawl: [],
    });
    const siteId = (await audit(id)).siteId ?? '';
    const patch = (caller: typeof admin, body: object) =>
      patchSite(
        caller.request(`${base}/sites/${siteId}`, { method: 'PATCH', body: JSON.stringify(body) }),
        ctx(siteId),
      );
    expect((await patch(reviewer, { name: 'Nope' })).status).toBe(403);
    const res = await patch(admin, { name: 'Patched', settings: { requireConfirmedUnreached: true } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'Patched',
      settings: { requireConfirmedUnreached: true },
    });
    // Keys not given keep their value.
    expect(await (await patch(admin, { name: 'Again' })).json()).toMatchObject({
      name: 'Again',
      settings: { requireConfirmedUnreached: true },
    });
    expect((await patch(admin, { settings: { unknown: true } })).status).toBe(400);
    const missing = randomUUID();
    const gone = await patchSite(
      admin.request(`${base}/sites/${missing}`, { method: 'PATCH', body: JSON.stringify({ name: 'x' }) }),
      ctx(missing),
    );
    expect(gone.status).toBe(404);
  });
});
