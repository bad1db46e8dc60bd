// Running a spot-check again and comparing two runs, through the routes and the real step
// runner against a site on 127.0.0.1 whose answers the test changes between runs.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as compareRoute } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/compare/[otherRunId]/route';
import { POST as retryRoute } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/retry/route';
import { GET as getRun } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/route';
import { POST as startRoute } from '@/app/api/v1/audits/[id]/spot-checks/route';
import { pool } from '@/lib/db/client';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { stopBoss } from '@/lib/queue/queue';
import type { SpotCheckStep } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { spotCheckRun } from './run';
import type { SpotCheckComparison, SpotCheckRunPage } from './schema';

let site: TestServer;
let auditId = '';
let otherAuditId = '';
let reviewer: TestCaller;
let viewer: TestCaller;
/** path → finding id */
const ids = new Map<string, number>();
const id = (path: string) => ids.get(path) as number;

/** What the site answers now, per path (the test edits it between runs); anything else is a 404. */
const live = new Map<string, { status: number; text: string }>();

function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = req.url ?? '/';
  if (path === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /a/private\n');
    return;
  }
  const page = live.get(path) ?? { status: 404, text: 'Not found' };
  res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<html><head><title>${path}</title><link rel="canonical" href="${site.origin}${path}"></head>` +
      `<body><p>${page.text}: words of a page of its own.</p></body></html>`,
  );
}

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const url = (path: string, audit = auditId) => `http://localhost/api/v1/audits/${audit}/spot-checks${path}`;

async function started(body: unknown): Promise<string> {
  const res = await startRoute(
    reviewer.request(url(''), { method: 'POST', body: JSON.stringify(body) }),
    ctx({ id: auditId }),
  );
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

function retry(runId: string, body?: unknown, caller = reviewer): Promise<Response> {
  const init: RequestInit = { method: 'POST' };
  if (body !== undefined) init.body = JSON.stringify(body);
  return retryRoute(caller.request(url(`/${runId}/retry`), init), ctx({ id: auditId, runId }));
}

async function retried(runId: string, body?: unknown): Promise<string> {
  const res = await retry(runId, body);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

async function finish(runId: string): Promise<void> {
  for (const step of ['select', 'check'] as SpotCheckStep[])
    await runStep(spotCheckRun, step, { runId, attempt: 1 });
}

async function runPage(runId: string): Promise<SpotCheckRunPage> {
  const res = await getRun(viewer.request(url(`/${runId}`)), ctx({ id: auditId, runId }));
  expect(res.status).toBe(200);
  return res.json();
}

async function stored(runId: string): Promise<{ request: unknown; finding_ids: number[]; retry_of: string }> {
  const { rows } = await pool().query(
    'SELECT request, finding_ids, retry_of FROM spot_check_runs WHERE id = $1',
    [runId],
  );
  return rows[0];
}

function compare(baseId: string, otherId: string, query = '', audit = auditId): Promise<Response> {
  return compareRoute(
    viewer.request(url(`/${baseId}/compare/${otherId}${query}`, audit)),
    ctx({ id: audit, runId: baseId, otherRunId: otherId }),
  );
}

const PATHS = ['/a/ok', '/a/back', '/a/gone', '/a/orphan', '/a/edit', '/a/private', '/a/late'];

beforeAll(async () => {
  site = await startTestServer(serve);
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  vi.stubEnv('ALLOWED_PORTS', String(site.port));
  const at = (path: string) => `${site.origin}${path}`;
  const crawled = (path: string, status = 200) =>
    JSON.stringify({ url: at(path), status, crawled_at: '2026-11-01T00:00:00Z' });
  const sitemaps = { 's.xml': urlsetXml(PATHS.map(at)) };
  // /a/ok was crawled fine (no finding); /a/back and /a/gone answered 404; the rest were never reached.
  const crawl = [crawled('/a/ok'), crawled('/a/back', 404), crawled('/a/gone', 404)];
  [auditId, otherAuditId] = await Promise.all([
    reconciledAuditOf('Spot-check retry and compare', { sitemaps, crawl }),
    reconciledAuditOf('Spot-check of another audit', { sitemaps, crawl }),
  ]);
  const { rows } = await pool().query<{ id: number; url: string }>(
    'SELECT id, url FROM findings WHERE audit_id = $1',
    [auditId],
  );
  for (const r of rows) ids.set(new URL(r.url).pathname, r.id);
  reviewer = await testCaller('reviewer');
  viewer = await testCaller('viewer');
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await site.close();
  await stopBoss();
});

function liveToday(): void {
  live.clear();
  live.set('/a/ok', { status: 200, text: 'Fine' });
  live.set('/a/back', { status: 200, text: 'Back again' });
  live.set('/a/orphan', { status: 200, text: 'Nobody links here' });
  live.set('/a/edit', { status: 200, text: 'First version' });
  live.set('/a/late', { status: 200, text: 'Late' });
}

describe('retrying a spot-check', () => {
  it('is not vacuous: six findings, /a/private behind robots.txt', () => {
    expect([...ids.keys()].sort()).toEqual(PATHS.filter((p) => p !== '/a/ok').sort());
  });

  it('starts a new run with the same request and seed, which picks the same sample; the old run stays', async () => {
    liveToday();
    const sourceId = await started({ sample: 3, seed: 5, ignoreRobots: true });
    await finish(sourceId);
    const before = await runPage(sourceId);
    expect(before.status).toBe('succeeded');

    const againId = await retried(sourceId);
    expect(againId).not.toBe(sourceId);
    await finish(againId);
    const [source, again] = [await stored(sourceId), await stored(againId)];
    expect(again.request).toEqual({ sample: 3, seed: 5, includeAdd: false, ignoreRobots: true });
    expect(again.request).toEqual(source.request);
    expect(source.finding_ids).toHaveLength(3);
    expect(again.finding_ids).toEqual(source.finding_ids);
    expect(again.retry_of).toBe(sourceId);
    // Not vacuous: some other seed picks other rows, so the same rows came from the same seed.
    const { sampleFindings } = await import('./data');
    const others = await Promise.all(
      [1, 2, 3, 4, 6, 7, 8, 9].map((seed) => sampleFindings(auditId, { list: 'prune' }, 3, seed)),
    );
    expect(others.some((rows) => rows.map((r) => r.id).join() !== source.finding_ids.join())).toBe(true);

    // The DTOs say where a retry came from; the source run is unchanged.
    expect(await runPage(againId)).toMatchObject({ retryOf: sourceId, status: 'succeeded' });
    const after = await runPage(sourceId);
    expect(after).toEqual(before);
    expect(after.retryOf).toBeNull();
  });

  it('with only=errors checks again exactly the rows that run could not check', async () => {
    liveToday();
    const sourceId = await started({ ids: [...ids.values()] });
    await finish(sourceId);
    const errors = (await runPage(sourceId)).items.filter((i) => i.verdict === 'error');
    // /a/private is disallowed by robots.txt and the run did not override it.
    expect(errors.map((i) => i.findingId)).toEqual([id('/a/private')]);

    const onlyId = await retried(sourceId, { only: 'errors' });
    const only = await stored(onlyId);
    expect(only.request).toEqual({ ids: [id('/a/private')], ignoreRobots: false });
    expect(only.retry_of).toBe(sourceId);
    await finish(onlyId);
    expect((await runPage(onlyId)).items.map((i) => i.findingId)).toEqual([id('/a/private')]);

    // A run that checked every row has no errors to check again.
    const cleanId = await started({ ids: [id('/a/back')] });
    await finish(cleanId);
    const none = await retry(cleanId, { only: 'errors' });
    expect(none.status).toBe(400);
    expect(await none.text()).toMatch(/no errors to check again/);
  });

  it('refuses a run still queued or running, and only=errors on a run that ended without results', async () => {
    const queuedId = await started({ ids: [id('/a/back')] });
    const refused = await retry(queuedId);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(/still running; cancel it first/);
    await runStep(spotCheckRun, 'select', { runId: queuedId, attempt: 1 });
    expect((await runPage(queuedId)).status).toBe('running');
    expect((await retry(queuedId)).status).toBe(409);

    // Cancelled: it can be run again whole, but it has no errors of its own to check again.
    const { cancelSpotCheck } = await import('./service');
    await cancelSpotCheck(queuedId, reviewer.name);
    const errorsOnly = await retry(queuedId, { only: 'errors' });
    expect(errorsOnly.status).toBe(409);
    expect(await errorsOnly.text()).toMatch(/ended without results \(cancelled\)/);
    const againId = await retried(queuedId);
    expect(await stored(againId)).toMatchObject({ retry_of: queuedId, request: { ids: [id('/a/back')] } });
  });

  it('is for reviewers, with a strict optional body, and 404 for a run of another audit', async () => {
    liveToday();
    const runId = await started({ ids: [id('/a/gone')] });
    await finish(runId);
    expect((await retry(runId, undefined, viewer)).status).toBe(403);
    expect((await retry(runId, { only: 'everything' })).status).toBe(400);
    expect((await retry(runId, { only: 'errors', extra: 1 })).status).toBe(400);
    const elsewhere = await retryRoute(
      reviewer.request(url(`/${runId}/retry`, otherAuditId), { method: 'POST' }),
      ctx({ id: otherAuditId, runId }),
    );
    expect(elsewhere.status).toBe(404);
  });
});

describe('comparing two runs', () => {
  let baseId = '';
  let otherId = '';

  beforeAll(async () => {
    liveToday();
    // The base run skips /a/late; the other skips /a/gone, so each has a row the other has not.
    baseId = await started({ ids: [...ids.values()].filter((n) => n !== id('/a/late')) });
    await finish(baseId);
    // Meanwhile: /a/back is gone again (404), /a/orphan is gone for good (410), /a/edit was rewritten.
    live.delete('/a/back');
    live.set('/a/orphan', { status: 410, text: 'Gone' });
    live.set('/a/edit', { status: 200, text: 'Second version, rewritten' });
    otherId = await started({ ids: [...ids.values()].filter((n) => n !== id('/a/gone')) });
    await finish(otherId);
  }, 30_000);

  it('counts and lists what changed over the rows both checked', async () => {
    const res = await compare(baseId, otherId);
    expect(res.status).toBe(200);
    const body = (await res.json()) as SpotCheckComparison;
    // Both checked back, orphan, edit, private: private is the same error twice.
    expect(body.counts).toEqual({
      same: 1,
      verdictChanged: 2,
      statusChanged: 2,
      contentChanged: 1,
      onlyInBase: 1,
      onlyInOther: 1,
    });
    expect(body.changes).toEqual([
      {
        findingId: id('/a/back'),
        url: `${site.origin}/a/back`,
        before: { verdict: 'contradicted', finalStatus: 200, liveReason: null },
        after: { verdict: 'confirmed', finalStatus: 404, liveReason: 'http_404' },
        contentChanged: false,
      },
      {
        findingId: id('/a/orphan'),
        url: `${site.origin}/a/orphan`,
        before: { verdict: 'orphan_live', finalStatus: 200, liveReason: null },
        after: { verdict: 'dead', finalStatus: 410, liveReason: 'http_410' },
        contentChanged: false,
      },
      {
        findingId: id('/a/edit'),
        url: `${site.origin}/a/edit`,
        before: { verdict: 'orphan_live', finalStatus: 200, liveReason: null },
        after: { verdict: 'orphan_live', finalStatus: 200, liveReason: null },
        contentChanged: true,
      },
    ]);
    expect(body.changes.map((c) => c.findingId)).toEqual(
      [...body.changes.map((c) => c.findingId)].sort((a, b) => a - b),
    );
    // Both runs, their signals side by side.
    expect(body.base).toMatchObject({ id: baseId, summary: { rotRate: { n: expect.any(Number) } } });
    expect(body.other).toMatchObject({ id: otherId, summary: { rotRate: { n: expect.any(Number) } } });
    expect(body.other.summary?.rotRate.value).toBeGreaterThan(body.base.summary?.rotRate.value ?? 1);
    expect(body.nextCursor).toBeNull();
  });

  it('turns around when the runs are swapped, and a run compared with itself has no changes', async () => {
    const swapped = (await (await compare(otherId, baseId)).json()) as SpotCheckComparison;
    expect(swapped.counts).toMatchObject({ verdictChanged: 2, onlyInBase: 1, onlyInOther: 1 });
    expect(swapped.changes[0]).toMatchObject({
      before: { verdict: 'confirmed', finalStatus: 404 },
      after: { verdict: 'contradicted', finalStatus: 200 },
    });
    const self = (await (await compare(baseId, baseId)).json()) as SpotCheckComparison;
    expect(self.counts).toEqual({
      same: 5,
      verdictChanged: 0,
      statusChanged: 0,
      contentChanged: 0,
      onlyInBase: 0,
      onlyInOther: 0,
    });
    expect(self.changes).toEqual([]);
  });

  it('pages the changes by finding id', async () => {
    const first = (await (await compare(baseId, otherId, '?limit=2')).json()) as SpotCheckComparison;
    expect(first.changes.map((c) => c.findingId)).toEqual([id('/a/back'), id('/a/orphan')]);
    expect(first.nextCursor).toBe(String(id('/a/orphan')));
    const rest = (await (
      await compare(baseId, otherId, `?limit=2&cursor=${first.nextCursor}`)
    ).json()) as SpotCheckComparison;
    expect(rest.changes.map((c) => c.findingId)).toEqual([id('/a/edit')]);
    expect(rest.nextCursor).toBeNull();
    expect(rest.counts).toEqual(first.counts);
  });

  it('is 404 when either run is not one of the audit', async () => {
    const theirs = await started({ ids: [id('/a/back')] });
    // A run of this audit asked for under the other audit, and a pair mixing audits.
    expect((await compare(baseId, otherId, '', otherAuditId)).status).toBe(404);
    const { rows } = await pool().query<{ id: string }>(
      `INSERT INTO spot_check_runs (audit_id, request, created_by) VALUES ($1, '{"ids":[1],"ignoreRobots":false}', 't')
       RETURNING id`,
      [otherAuditId],
    );
    const foreign = rows[0]?.id as string;
    expect((await compare(baseId, foreign)).status).toBe(404);
    expect((await compare(foreign, baseId)).status).toBe(404);
    expect((await compare(theirs, baseId)).status).toBe(200);
  });
});
