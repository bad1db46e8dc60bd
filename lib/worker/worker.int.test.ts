// Worker processes for real: a worker killed mid-job must not leave its audit running forever.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { isFinal } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { reapStaleRuns } from '@/lib/runs/reaper';
import { startRun } from '@/lib/runs/service';
import { MAX_ATTEMPTS } from '@/lib/runs/settings';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';

const root = path.resolve(import.meta.dirname, '..', '..');
const URLS = 3000;
const CHUNKS = 30;
/** The chunk after which /slow.xml holds its answer until `release()`: a worker is then mid-file for as long
 * as the test needs, without a pace that every run of the file waits out. */
const HELD_AFTER = 10;
let server: http.Server;
let origin = '';
let chunksServed = 0;
let release: () => void = () => {};
let released = Promise.resolve();
const workers: ChildProcess[] = [];

// Serves a 3,000-URL urlset: /slow.xml stops after its first chunks while held, /wake.xml all at once, and
// a small one (/small.xml).
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    if (req.url === '/small.xml') {
      const urls = Array.from({ length: 50 }, (_, i) => `<url><loc>https://slow.example/p/${i}</loc></url>`);
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
      );
      return;
    }
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const perChunk = URLS / CHUNKS;
    for (let c = 0; c < CHUNKS; c++) {
      let chunk = '';
      for (let i = 0; i < perChunk; i++)
        chunk += `<url><loc>https://slow.example/p/${c * perChunk + i}</loc></url>`;
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
      chunksServed += 1;
      if (req.url === '/slow.xml' && c + 1 === HELD_AFTER) await released;
      if (res.destroyed) return;
    }
    res.end('</urlset>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  release();
  for (const w of workers) w.kill('SIGKILL');
  await stopBoss();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function startWorker(env: Record<string, string> = {}): ChildProcess & { output: () => string } {
  // `node … --import tsx` keeps the worker one process, so SIGKILL really kills it (the tsx CLI forks a child).
  const child = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
    cwd: root,
    env: { ...process.env, ...WORKER_ENV, JOB_STALE_SECONDS: '2', ALLOW_PRIVATE_NETWORK: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += String(d);
    if (process.env.DEBUG_WORKER) process.stdout.write(d);
  });
  child.stderr?.on('data', (d) => process.env.DEBUG_WORKER && process.stderr.write(d));
  workers.push(child);
  return Object.assign(child, { output: () => output });
}

/** Stops a worker with SIGTERM and waits for it to exit: a worker still stopping would otherwise reap
 * the rows the next test makes stale on purpose (its reaper runs every second here). */
async function stopped(worker: ChildProcess): Promise<void> {
  const exited = new Promise((r) => worker.once('exit', r));
  worker.kill('SIGTERM');
  await exited;
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 45_000,
): Promise<T> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function entryCount(id: string): Promise<number> {
  const { rows } = await pool().query('SELECT count(*)::int AS n FROM sitemap_entries WHERE audit_id = $1', [
    id,
  ]);
  return rows[0].n;
}

describe('a worker killed mid-job', () => {
  it('is detected by another worker, which re-runs the audit to completion without duplicate rows', async () => {
    const id = randomUUID();
    await insertAudit(id, 'kill test', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/slow.xml` },
    ]);
    await startRun(auditRun, id);
    released = new Promise((r) => {
      release = () => r();
    });

    const first = startWorker();
    // Rows of a file become visible when its COPY ends, so "mid-file" is judged by what the server sent.
    await waitFor('the first worker to be mid-file', async () => chunksServed >= HELD_AFTER);
    expect(await entryCount(id)).toBe(0);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect((await getAudit(id))?.status).toBe('running');
    expect(chunksServed).toBe(HELD_AFTER);
    // The file is whole for the next reader, at once.
    release();

    const second = startWorker();
    const audit = await waitFor('the audit to finish', async () => {
      const a = await getAudit(id);
      return a && isFinal(a.status) ? a : null;
    });
    await stopped(second);
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap.entries).toBe(URLS);
    expect(await entryCount(id)).toBe(URLS);
    const { rows } = await pool().query('SELECT attempt FROM audits WHERE id = $1', [id]);
    expect(rows[0].attempt).toBe(2);
  }, 90_000);
});

describe('a job queued by another process', () => {
  it("starts at once, not at the worker's next poll", async () => {
    // Polling once a minute: only the wake-up (NOTIFY, lib/queue/wake.ts) can start the job within the test.
    const worker = startWorker({ JOB_POLL_SECONDS: '60' });
    await waitFor('the worker to be ready', async () => worker.output().includes('worker ready'));
    // Its first polls (at start) are over and found nothing.
    await new Promise((r) => setTimeout(r, 1000));
    const id = randomUUID();
    await insertAudit(id, 'wake test', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/wake.xml` },
    ]);
    // This process has no workers of its own: enqueue can only wake the worker process.
    await startRun(auditRun, id);
    const audit = await waitFor(
      'the audit to finish',
      async () => {
        const a = await getAudit(id);
        return a && isFinal(a.status) ? a : null;
      },
      30_000,
    );
    await stopped(worker);
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap.entries).toBe(URLS);
  }, 60_000);
});

describe('the reaper', () => {
  it('requeues a stale claimed step with a new attempt, and gives up after the last attempt with a reason', async () => {
    const retry = randomUUID();
    const giveUp = randomUUID();
    await insertAudit(retry, 'stale', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
    ]);
    await insertAudit(giveUp, 'stale', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
    ]);
    await pool().query(
      `UPDATE audits SET status = 'running', phase = 'sitemaps', claimed_at = now() - interval '1 hour',
         heartbeat_at = now() - interval '1 hour', attempt = CASE WHEN id = $2 THEN $3 ELSE 1 END
        WHERE id IN ($1, $2)`,
      [retry, giveUp, MAX_ATTEMPTS],
    );
    const reaped = await reapStaleRuns([auditRun]);
    expect(reaped).toEqual(
      expect.arrayContaining([
        { kind: 'audit', id: retry, attempt: 2, status: 'queued', step: 'ingest' },
        { kind: 'audit', id: giveUp, attempt: MAX_ATTEMPTS, status: 'failed', step: null },
      ]),
    );
    const failed = await getAudit(giveUp);
    expect(failed?.status).toBe('failed');
    expect(failed?.errors.at(-1)?.message).toMatch(/stopped responding 3 times/);
    expect(await getAudit(retry)).toMatchObject({ status: 'queued', phase: 'retrying' });
    const jobs = await pool().query(
      "SELECT data FROM pgboss.job WHERE name = 'ingest' AND data->>'runId' = $1",
      [retry],
    );
    expect(jobs.rows.map((r) => r.data)).toEqual([{ runId: retry, attempt: 2 }]);
  });

  it('re-runs the step the run was at (reconcile, not ingest), read from its step, not its phase', async () => {
    const id = randomUUID();
    await insertAudit(id, 'stale reconcile', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
    ]);
    // A phase that says nothing about the step: only the step column decides.
    await pool().query(
      `UPDATE audits SET status = 'running', step = 'reconcile', phase = 'starting',
         claimed_at = now() - interval '1 hour', heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    const reaped = await reapStaleRuns([auditRun]);
    expect(reaped).toContainEqual({ kind: 'audit', id, attempt: 2, status: 'queued', step: 'reconcile' });
    const jobs = await pool().query("SELECT name FROM pgboss.job WHERE data->>'runId' = $1", [id]);
    expect(jobs.rows).toEqual([{ name: 'reconcile' }]);
  });

  it('never judges a step that waits in the queue, however old its last heartbeat', async () => {
    const waiting = randomUUID();
    const queued = randomUUID();
    for (const id of [waiting, queued]) {
      await insertAudit(id, 'waiting', { normalization: 'exact' }, [
        { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
      ]);
    }
    await pool().query(
      `UPDATE audits SET status = 'running', step = 'reconcile', phase = 'reconcile_queued', claimed_at = NULL,
         heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [waiting],
    );
    const reaped = (await reapStaleRuns([auditRun])).map((r) => r.id);
    expect(reaped).not.toContain(waiting);
    expect(reaped).not.toContain(queued);
    expect(await getAudit(waiting)).toMatchObject({ status: 'running', phase: 'reconcile_queued' });
    const { rows } = await pool().query('SELECT attempt FROM audits WHERE id = ANY($1)', [[waiting, queued]]);
    expect(rows.map((r) => r.attempt)).toEqual([1, 1]);
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

describe('fifty audits created at once', () => {
  it('wait between their steps longer than the stale window without being reaped', async () => {
    const crawl = path.join(mkdtempSync(path.join(os.tmpdir(), 'fifty-')), 'crawl.jsonl');
    writeFileSync(
      crawl,
      Array.from({ length: 50 }, (_, i) =>
        JSON.stringify({ url: `https://slow.example/p/${i}`, status: 200, indexable: true }),
      ).join('\n'),
    );
    const ids: string[] = Array.from({ length: 50 }, () => randomUUID());
    for (const id of ids) {
      await insertAudit(id, 'fifty', { normalization: 'exact' }, [
        { role: 'sitemap', kind: 'url', url: `${origin}/small.xml` },
        { role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath: crawl },
      ]);
    }
    await Promise.all(ids.map((id) => startRun(auditRun, id)));
    const stale = process.env.JOB_STALE_SECONDS;
    const privateNetwork = process.env.ALLOW_PRIVATE_NETWORK;
    process.env.JOB_STALE_SECONDS = '1';
    process.env.ALLOW_PRIVATE_NETWORK = 'true';
    try {
      // Every ingest hands over to reconcile; the reconcile jobs then wait, as behind a busy worker.
      // Two at a time, as two workers would (each ingest holds two pooled connections while it loads).
      for (let i = 0; i < ids.length; i += 2)
        await Promise.all(ids.slice(i, i + 2).map((id) => runAuditStep('ingest', id)));
      const { rows: waiting } = await pool().query(
        `SELECT count(*)::int AS n FROM audits WHERE id = ANY($1) AND phase = 'reconcile_queued'`,
        [ids],
      );
      expect(waiting[0].n).toBe(50);
      // Their last heartbeats an hour past the stale window, as if they had waited that long (the reaper
      // judges heartbeat_at against now()).
      await pool().query(
        `UPDATE audits SET heartbeat_at = heartbeat_at - interval '1 hour',
           claimed_at = claimed_at - interval '1 hour' WHERE id = ANY($1)`,
        [ids],
      );
      expect((await reapStaleRuns([auditRun])).filter((r) => ids.includes(r.id))).toEqual([]);
      for (let i = 0; i < ids.length; i += 2)
        await Promise.all(ids.slice(i, i + 2).map((id) => runAuditStep('reconcile', id)));
    } finally {
      restoreEnv('JOB_STALE_SECONDS', stale);
      restoreEnv('ALLOW_PRIVATE_NETWORK', privateNetwork);
    }
    const { rows } = await pool().query(
      'SELECT status::text, attempt, count(*)::int AS n FROM audits WHERE id = ANY($1) GROUP BY 1, 2',
      [ids],
    );
    expect(rows).toEqual([{ status: 'succeeded', attempt: 1, n: 50 }]);
  }, 120_000);
});
