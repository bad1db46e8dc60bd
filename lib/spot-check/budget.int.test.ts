// What one user's spot-checks may cost everyone: the per-user limit of active runs (through the POST
// route), the budget each run keeps and states, a host that keeps refusing given up, and a small run of
// another audit served while a run waits on a rate-limiting host (timed against a real worker process).
import { type ChildProcess, spawn } from 'node:child_process';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as cancelRoute } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/cancel/route';
import { GET as getRun } from '@/app/api/v1/audits/[id]/spot-checks/[runId]/route';
import { POST as startRoute } from '@/app/api/v1/audits/[id]/spot-checks/route';
import { pool } from '@/lib/db/client';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { stopBoss } from '@/lib/queue/queue';
import type { SpotCheckStep } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { withEnv } from '@/lib/test-support/env';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';
import { spotCheckRun } from './run';
import type { SpotCheckRunPage } from './schema';

const root = path.resolve(import.meta.dirname, '..', '..');
let healthy: TestServer;
let refusing: TestServer;
/** What the refusing host sends as Retry-After (seconds). */
let retryAfter = '30';
/** While set, the healthy host keeps its answers back (a run is seen mid-check). */
let holding = false;
const held: http.ServerResponse[] = [];
let slowAudit = '';
let smallAudit = '';
let reviewer: TestCaller;
const workers: ChildProcess[] = [];

const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const base = (auditId: string) => `http://localhost/api/v1/audits/${auditId}/spot-checks`;

function start(auditId: string, body: unknown, caller = reviewer): Promise<Response> {
  return startRoute(
    caller.request(base(auditId), { method: 'POST', body: JSON.stringify(body) }),
    ctx({ id: auditId }),
  );
}

async function started(auditId: string, body: unknown = {}, caller = reviewer): Promise<string> {
  const res = await start(auditId, body, caller);
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

async function runOf(auditId: string, runId: string): Promise<SpotCheckRunPage> {
  const res = await getRun(reviewer.request(`${base(auditId)}/${runId}`), ctx({ id: auditId, runId }));
  expect(res.status).toBe(200);
  return res.json();
}

async function cancel(auditId: string, runId: string): Promise<void> {
  const res = await cancelRoute(
    reviewer.request(`${base(auditId)}/${runId}/cancel`, { method: 'POST' }),
    ctx({ id: auditId, runId }),
  );
  expect([200, 409]).toContain(res.status);
}

function startWorker(env: Record<string, string> = {}): ChildProcess & { output: () => string } {
  // `node … --import tsx` keeps the worker one process, so SIGKILL really kills it.
  const child = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
    cwd: root,
    env: { ...process.env, ...WORKER_ENV, ALLOW_PRIVATE_NETWORK: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
  });
  return Object.assign(child, { output: () => output });
}

function step(name: SpotCheckStep, runId: string): Promise<void> {
  return runStep(spotCheckRun, name, { runId, attempt: 1 });
}

beforeAll(async () => {
  healthy = await startTestServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (holding) return void held.push(res);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Page ${req.url}</title><p>words</p>`);
  });
  refusing = await startTestServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(429, { 'retry-after': retryAfter }).end();
  });
  vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'true');
  const crawled = (url: string) => JSON.stringify({ url, status: 404, crawled_at: '2026-11-01T00:00:00Z' });
  const slowUrls = Array.from({ length: 4 }, (_, i) => `${refusing.origin}/p/${i}`);
  slowAudit = await reconciledAuditOf('Slow host', {
    sitemaps: { 's.xml': urlsetXml(slowUrls) },
    crawl: slowUrls.map(crawled),
  });
  const smallUrls = [`${healthy.origin}/only`, `${healthy.origin}/two`, `${healthy.origin}/three`];
  smallAudit = await reconciledAuditOf('Small', {
    sitemaps: { 's.xml': urlsetXml(smallUrls) },
    crawl: smallUrls.map(crawled),
  });
  reviewer = await testCaller('reviewer');
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  vi.unstubAllEnvs();
  await Promise.all([healthy.close(), refusing.close()]);
  await stopBoss();
});

describe('spot-check budgets', () => {
  it('refuses a user a further active run with 429, a message and Retry-After; others still start', async () => {
    const runs = [await started(smallAudit), await started(slowAudit), await started(smallAudit)];
    const refused = await start(slowAudit, {});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('too_many_requests');
    expect(error.message).toContain('You have 3 spot-checks waiting or running');
    expect(error.message).toContain('SPOT_CHECK_MAX_ACTIVE_PER_USER = 3');
    // Nothing was stored for the refused start.
    const { rows } = await pool().query(
      `SELECT count(*)::int AS n FROM spot_check_runs WHERE created_by = $1`,
      [reviewer.name],
    );
    expect(rows[0].n).toBe(3);
    // Another user is not held by this one's runs; the setting is read at each start.
    const other = await testCaller('reviewer');
    await cancel(smallAudit, await started(smallAudit, {}, other));
    await withEnv({ SPOT_CHECK_MAX_ACTIVE_PER_USER: '4' }, async () => {
      await cancel(slowAudit, await started(slowAudit));
    });
    // An ended run frees its place.
    await cancel(smallAudit, runs[0] as string);
    const again = await started(smallAudit);
    for (const id of [again, ...runs.slice(1)]) {
      await cancel(id === runs[1] ? slowAudit : smallAudit, id);
    }
  });

  it('records the budget a run starts with and states it in the run', async () => {
    await withEnv({ SPOT_CHECK_REQUEST_BUDGET: '3', SPOT_CHECK_TIME_BUDGET_SECONDS: '600' }, async () => {
      const runId = await started(smallAudit, { sample: 3 });
      expect((await runOf(smallAudit, runId)).budget).toEqual({
        timeSeconds: 600,
        requests: 3,
        hostRefusals: 3,
        maxRetryAfterSeconds: 30,
      });
      // The run keeps its budget when the setting changes before it is checked.
      await withEnv({ SPOT_CHECK_REQUEST_BUDGET: '1000' }, async () => {
        await step('select', runId);
        await step('check', runId);
      });
      const run = await runOf(smallAudit, runId);
      // robots.txt and 2 rows spend the 3 requests: the third row and the host's probe are not checked.
      expect(run.status).toBe('partial');
      expect(run.errorMessage).toBe(
        "1 of 3 URLs could not be checked (1 because the run's budget of 3 requests was spent)",
      );
      const errors = run.items.filter((i) => i.verdict === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]?.error).toEqual({
        code: 'budget_spent',
        message: "the run's budget of 3 requests was spent before this URL was checked",
      });
      expect(errors[0]?.explanation).toContain('Could not check: the run');
    });
  });

  it('ends the rows left when the time budget is spent as errors saying so; the run finishes', async () => {
    const runId = await withEnv({ SPOT_CHECK_TIME_BUDGET_SECONDS: '60' }, () =>
      started(smallAudit, { sample: 3 }),
    );
    await step('select', runId);
    // The run started two minutes ago (its worker died and this is the check again): its minute is spent.
    await pool().query(`UPDATE spot_check_runs SET started_at = now() - interval '2 minutes' WHERE id = $1`, [
      runId,
    ]);
    const asked = healthy.requests.length;
    await step('check', runId);
    const run = await runOf(smallAudit, runId);
    expect(run.status).toBe('partial');
    expect(run.errorMessage).toBe(
      "3 of 3 URLs could not be checked (3 because the run's time budget of 60 s was spent)",
    );
    expect(run.items.map((i) => i.error?.code)).toEqual(['budget_spent', 'budget_spent', 'budget_spent']);
    expect(healthy.requests.length).toBe(asked);
  });

  it('gives up a host whose Retry-After the run cannot afford: its rows end as errors that say so', async () => {
    retryAfter = '31';
    try {
      const runId = await started(slowAudit, { sample: 4 });
      await step('select', runId);
      const asked = refusing.requests.length;
      const began = Date.now();
      await step('check', runId);
      // Given up at its first answer, not waited out (31 s a retry).
      expect(Date.now() - began).toBeLessThan(10_000);
      const run = await runOf(slowAudit, runId);
      const host = new URL(refusing.origin).host;
      expect(run.status).toBe('partial');
      expect(run.errorMessage).toBe(`4 of 4 URLs could not be checked (4 because the run gave up ${host})`);
      expect(run.items.map((i) => i.verdict)).toEqual(['error', 'error', 'error', 'error']);
      for (const item of run.items) {
        expect(item.error).toEqual({
          code: 'host_refused',
          message: `${host} refused: it answered 429 with Retry-After 31 s, longer than the 30 s a run waits; the run gave the host up and did not wait it out`,
        });
        expect(item.explanation).toBe(`Could not check: ${item.error?.message}`);
      }
      // robots.txt and the rows in flight when the first 429 came (2 per host): nothing after.
      expect(refusing.requests.length - asked).toBeLessThanOrEqual(3);
    } finally {
      retryAfter = '30';
    }
  });

  it("serves another audit's 1-URL run while a run waits on a host answering 429 Retry-After: 30", async () => {
    // Heartbeats every 2 s instead of 5 s (a quarter of the stale window): the cancelled run is let go at its
    // next heartbeat, and the worker's stop below waits for that.
    const worker = startWorker({ JOB_STALE_SECONDS: '8' });
    await vi.waitFor(() => expect(worker.output()).toContain('worker ready'), {
      timeout: 30_000,
      interval: 100,
    });

    const pages = () => refusing.requests.filter((r) => r.url.startsWith('/p/')).length;
    const before = pages();
    const slow = await started(slowAudit, { sample: 4 });
    // The slow run has met the host's 429 and waits out its Retry-After of 30 s.
    await vi.waitFor(() => expect(pages()).toBeGreaterThan(before), { timeout: 15_000, interval: 50 });
    const began = Date.now();
    const small = await started(smallAudit, { ids: [await firstFinding(smallAudit)] });
    const done = await vi.waitFor(
      async () => {
        const run = await runOf(smallAudit, small);
        expect(run.status).toBe('succeeded');
        return run;
      },
      { timeout: 40_000, interval: 50 },
    );
    // Served in seconds, not after the other run (one check slot for both: 60 s, its 429s waited out
    // until 3 URLs had refused). The margin is for a loaded 2-core machine running two test files at once.
    expect(Date.now() - began).toBeLessThan(40_000);
    expect(done.items).toHaveLength(1);
    expect((await runOf(slowAudit, slow)).status).toBe('running');
    await cancel(slowAudit, slow);
    await vi.waitFor(async () => expect((await runOf(slowAudit, slow)).status).toBe('cancelled'), {
      timeout: 10_000,
      interval: 100,
    });
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  }, 90_000);

  it('resumes a run whose worker was killed mid-check (kill -9), to the same result', async () => {
    const stale = { JOB_STALE_SECONDS: '2' };
    const first = startWorker(stale);
    holding = true;
    const runId = await started(smallAudit, { sample: 3 });
    // Mid-check: the rows were asked for and are being held.
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
    expect((await runOf(smallAudit, runId)).phase).toBe('checking');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    holding = false;
    for (const res of held.splice(0)) res.destroy();
    const second = startWorker(stale);
    const run = await vi.waitFor(
      async () => {
        const r = await runOf(smallAudit, runId);
        expect(r.status).toBe('succeeded');
        return r;
      },
      { timeout: 30_000, interval: 100 },
    );
    second.kill('SIGTERM');
    expect(run.items).toHaveLength(3);
    expect(run.budget?.timeSeconds).toBe(1_800);
    const { rows } = await pool().query('SELECT attempt FROM spot_check_runs WHERE id = $1', [runId]);
    expect(rows[0].attempt).toBe(2);
  }, 90_000);
});

async function firstFinding(auditId: string): Promise<number> {
  const { rows } = await pool().query<{ id: number }>(
    'SELECT min(id)::int AS id FROM findings WHERE audit_id = $1',
    [auditId],
  );
  return rows[0]?.id as number;
}
