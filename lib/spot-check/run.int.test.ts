// The spot-check run kind end to end: started through the POST route, run through the real step runner
// (claim, handler, state change) against a site on 127.0.0.1, read back through the GET routes.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as cancelRoute } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/cancel/route';
import { GET as getRun } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/route';
import { GET as listRuns, POST as startRoute } from '@/app/api/v1/audits/[id]/spot-checks/route';
import { pool } from '@/lib/db/client';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { stopBoss } from '@/lib/queue/queue';
import { SPOT_CHECK_PHASES, SPOT_CHECK_STEPS, type SpotCheckStep } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { withEnv } from '@/lib/test-support/env';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { spotCheckRun } from './run';
import type { SpotCheckItemDto, SpotCheckRunDto, SpotCheckRunPage } from './schema';

function runSpotCheckStep(step: SpotCheckStep, runId: string, attempt = 1): Promise<void> {
  return runStep(spotCheckRun, step, { runId, attempt });
}

let site: TestServer;
let auditId = '';
let reviewer: TestCaller;
let viewer: TestCaller;
/** path → finding id */
const ids = new Map<string, number>();

const page = (title: string, head = '') =>
  `<html><head><title>${title}</title>${head}</head><body><p>${title}: words of a page of its own.</p></body></html>`;

function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = req.url ?? '/';
  const html = (status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const self = `<link rel="canonical" href="${site.origin}${path}">`;
  if (['/shop/back', '/shop/orphan', '/shop/flaky', '/shop/target'].includes(path)) {
    html(200, page(`Page ${path}`, self));
  } else if (path === '/shop/hidden') {
    html(200, page('Hidden', `${self}<meta name="robots" content="noindex">`));
  } else if (path === '/shop/moved') {
    res.writeHead(301, { location: '/shop/target' });
    res.end();
  } else if (path !== '/shop/slow') {
    // /shop/slow never answers: the cancel test stops it.
    html(404, page('Not found'));
  }
}

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const url = (path: string) => `http://localhost/api/v1/audits/${auditId}/spot-checks${path}`;

async function start(body: unknown, caller = reviewer): Promise<Response> {
  return startRoute(
    caller.request(url(''), { method: 'POST', body: JSON.stringify(body) }),
    ctx({ id: auditId }),
  );
}

async function startedRun(body: unknown): Promise<string> {
  const res = await start(body);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

async function runPage(runId: string, query = ''): Promise<SpotCheckRunPage> {
  const res = await getRun(viewer.request(url(`/${runId}${query}`)), ctx({ id: auditId, runId }));
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  site = await startTestServer(serve);
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  vi.stubEnv('ALLOWED_PORTS', String(site.port));
  // These tests leave runs queued (no worker takes them); the per-user limit has its own test.
  vi.stubEnv('SPOT_CHECK_MAX_ACTIVE_PER_USER', '100');
  const at = (path: string) => `${site.origin}${path}`;
  const crawled = (path: string, more: Record<string, unknown> = {}) =>
    JSON.stringify({ url: at(path), status: 200, crawled_at: '2026-11-01T00:00:00Z', ...more });
  const declared = ['ok', 'gone', 'back', 'orphan', 'hidden', 'moved', 'flaky', 'slow'].map((p) =>
    at(`/shop/${p}`),
  );
  auditId = await reconciledAuditOf('Spot-check run', {
    sitemaps: { 's.xml': urlsetXml(declared) },
    crawl: [
      crawled('/shop/ok'),
      crawled('/shop/gone', { status: 404 }),
      crawled('/shop/back', { status: 404 }),
      crawled('/shop/hidden', { noindex: true }),
      crawled('/shop/moved', { status: 301, redirect_url: at('/shop/target') }),
      crawled('/shop/flaky', { status: 503 }),
      crawled('/shop/slow', { status: 404 }),
    ],
  });
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

describe('the spot_check run kind', () => {
  it('is not vacuous: the audit has the findings the checks are about', () => {
    expect([...ids.keys()].sort()).toEqual(
      [
        '/shop/back',
        '/shop/flaky',
        '/shop/gone',
        '/shop/hidden',
        '/shop/moved',
        '/shop/orphan',
        '/shop/slow',
      ].sort(),
    );
  });

  it('has CHECKs listing exactly its steps and phases', async () => {
    const values = async (column: string) => {
      const { rows } = await pool().query<{ def: string }>(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = $1`,
        [`spot_check_runs_${column}_check`],
      );
      return [...(rows[0]?.def ?? '').matchAll(/'([^']+)'::text/g)].map((m) => m[1]).sort();
    };
    expect(await values('step')).toEqual([...SPOT_CHECK_STEPS].sort());
    expect(await values('phase')).toEqual([...SPOT_CHECK_PHASES].sort());
    expect(spotCheckRun.steps.map((s) => s.name)).toEqual([...SPOT_CHECK_STEPS]);
  });

  it('checks chosen rows live: chains, verdicts and the summary, paginated by finding id', async () => {
    const chosen = ['gone', 'back', 'orphan', 'hidden', 'moved', 'flaky'].map(
      (p) => ids.get(`/shop/${p}`) as number,
    );
    const runId = await startedRun({ ids: chosen });
    await runSpotCheckStep('select', runId);
    await runSpotCheckStep('check', runId);
    // 6 rows and the host's soft-404 probe were checked; the progress counts the 6 rows only.
    // A re-delivered job of the finished step does nothing, and the items stay one per finding.
    await runSpotCheckStep('check', runId);

    const first = await runPage(runId, '?limit=4');
    expect(first).toMatchObject({ status: 'succeeded', phase: 'done', progress: { done: 6, total: 6 } });
    expect(first.items).toHaveLength(4);
    expect(first.nextCursor).toBe(String(first.items[3]?.findingId));
    const rest = await runPage(runId, `?limit=4&cursor=${first.nextCursor}`);
    expect(rest.nextCursor).toBeNull();
    const items = new Map<string, SpotCheckItemDto>(
      [...first.items, ...rest.items].map((i) => [new URL(i.url).pathname, i]),
    );
    const verdicts = Object.fromEntries([...items].map(([path, i]) => [path, i.verdict]));
    expect(verdicts).toEqual({
      '/shop/gone': 'confirmed',
      '/shop/back': 'contradicted',
      '/shop/orphan': 'orphan_live',
      '/shop/hidden': 'confirmed',
      '/shop/moved': 'confirmed',
      '/shop/flaky': 'recovered',
    });
    expect(items.get('/shop/moved')?.chain).toEqual([
      { url: `${site.origin}/shop/moved`, status: 301, location: '/shop/target' },
      { url: `${site.origin}/shop/target`, status: 200, location: null },
    ]);
    expect(items.get('/shop/hidden')).toMatchObject({
      noindex: true,
      finalStatus: 200,
      liveReason: 'noindex',
    });
    expect(items.get('/shop/back')).toMatchObject({
      canonical: `${site.origin}/shop/back`,
      contentType: 'text/html; charset=utf-8',
      error: null,
    });
    expect(items.get('/shop/gone')?.textHash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.summary?.byVerdict).toMatchObject({
      confirmed: 3,
      contradicted: 1,
      orphan_live: 1,
      recovered: 1,
    });
    // 1 of 6 declared rows ends in a 4xx (gone); back and flaky contradict the crawl: 2 of 6 > 20 %.
    expect(first.summary?.rotRate).toMatchObject({ value: 1 / 6, n: 6 });
    expect(first.summary?.staleCrawl).toMatchObject({ contradicting: 2, checked: 6 });
    const { rows } = await pool().query('SELECT host_probes FROM spot_check_runs WHERE id = $1', [runId]);
    expect(rows[0].host_probes).toEqual([expect.objectContaining({ origin: site.origin, status: 404 })]);

    const res = await listRuns(viewer.request(url('')), ctx({ id: auditId }));
    const { runs } = (await res.json()) as { runs: SpotCheckRunDto[] };
    expect(runs.find((r) => r.id === runId)).toMatchObject({ status: 'succeeded', request: { ids: chosen } });
  });

  it('repeats a seeded sample, and fills in a seed when none is given', async () => {
    const selection = async (body: unknown) => {
      const runId = await startedRun(body);
      await runSpotCheckStep('select', runId);
      const { rows } = await pool().query(
        'SELECT finding_ids, request, phase FROM spot_check_runs WHERE id = $1',
        [runId],
      );
      expect(rows[0].phase).toBe('check_queued');
      return rows[0];
    };
    const a = await selection({ sample: 3, seed: 11 });
    const b = await selection({ sample: 3, seed: 11 });
    expect(a.finding_ids).toHaveLength(3);
    expect(b.finding_ids).toEqual(a.finding_ids);
    const unseeded = await selection({});
    expect(unseeded.request).toMatchObject({ sample: 50, seed: expect.any(Number), includeAdd: false });
    expect(unseeded.finding_ids).toHaveLength(ids.size); // 50 asked, 7 rows: all of them
  });

  it('numbers the runs in creation order (#1 the first), listed newest first', async () => {
    const res = await listRuns(viewer.request(url('')), ctx({ id: auditId }));
    const { runs } = (await res.json()) as { runs: SpotCheckRunDto[] };
    expect(runs.length).toBeGreaterThan(2);
    expect(runs.map((r) => r.number)).toEqual(runs.map((_, i) => runs.length - i));
    const single = await runPage(runs[1]?.id as string);
    expect(single.number).toBe(runs.length - 1);
  });

  it('refuses ids that are not the audit findings and a filter over SPOT_CHECK_MAX_ROWS', async () => {
    const beyond = Math.max(...ids.values()) + 1;
    const res = await start({ ids: [ids.get('/shop/gone'), beyond] });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(String(beyond));
    await withEnv({ SPOT_CHECK_MAX_ROWS: '2' }, async () => {
      const over = await start({ filter: { list: 'prune' } });
      expect(over.status).toBe(400);
      expect(await over.text()).toMatch(/More than 2 rows/);
      expect((await start({ filter: { list: 'held' } })).status).toBe(202);
    });
  });

  it('lets viewers read but not start or cancel', async () => {
    expect((await start({ sample: 2 }, viewer)).status).toBe(403);
    expect((await listRuns(viewer.request(url('')), ctx({ id: auditId }))).status).toBe(200);
  });

  it('stops a run cancelled mid-check, storing nothing', async () => {
    await withEnv({ JOB_STALE_SECONDS: '1' }, async () => {
      const runId = await startedRun({ ids: [ids.get('/shop/slow')] });
      await runSpotCheckStep('select', runId);
      const checking = runSpotCheckStep('check', runId);
      await vi.waitFor(() => expect(site.requests.some((r) => r.url === '/shop/slow')).toBe(true), {
        timeout: 3000,
      });
      // While it checks, "n of N" is over the one row asked for: the host's probe is not a row.
      const { rows } = await pool().query('SELECT phase, progress_total FROM spot_check_runs WHERE id = $1', [
        runId,
      ]);
      expect(rows[0]).toEqual({ phase: 'checking', progress_total: 1 });
      const began = Date.now();
      const res = await cancelRoute(
        reviewer.request(url(`/${runId}/cancel`), { method: 'POST' }),
        ctx({ id: auditId, runId }),
      );
      expect(res.status).toBe(200);
      await checking;
      expect(Date.now() - began).toBeLessThan(3000);
      const run = await runPage(runId);
      expect(run).toMatchObject({
        status: 'cancelled',
        cancelledBy: reviewer.name,
        items: [],
        summary: null,
      });
      const again = await cancelRoute(
        reviewer.request(url(`/${runId}/cancel`), { method: 'POST' }),
        ctx({ id: auditId, runId }),
      );
      expect(again.status).toBe(409);
    });
  });

  it('goes with its audit', async () => {
    const { rows } = await pool().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM spot_check_runs WHERE audit_id = $1',
      [auditId],
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    const { deleteAudit } = await import('@/lib/audits/mutations');
    await deleteAudit(auditId);
    const after = await pool().query<{ n: number }>(
      `SELECT (SELECT count(*) FROM spot_check_runs WHERE audit_id = $1)::int
            + (SELECT count(*) FROM spot_check_items i WHERE NOT EXISTS
                 (SELECT 1 FROM spot_check_runs r WHERE r.id = i.run_id))::int AS n`,
      [auditId],
    );
    expect(after.rows[0]?.n).toBe(0);
  });
});
