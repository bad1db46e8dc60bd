// Worker processes for real: a worker killed mid-job must not leave its audit running forever.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { isFinal } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { enqueue, stopBoss } from './queue';
import { MAX_ATTEMPTS, reapStaleAudits } from './reaper';

const root = path.resolve(import.meta.dirname, '..', '..');
const URLS = 3000;
const CHUNKS = 30;
let server: http.Server;
let origin = '';
let chunksServed = 0;
const workers: ChildProcess[] = [];

// Serves a 3,000-URL urlset slowly (about 3 s), so a worker can be killed in the middle of it.
beforeAll(async () => {
  server = http.createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const perChunk = URLS / CHUNKS;
    for (let c = 0; c < CHUNKS; c++) {
      let chunk = '';
      for (let i = 0; i < perChunk; i++)
        chunk += `<url><loc>https://slow.example/p/${c * perChunk + i}</loc></url>`;
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
      chunksServed += 1;
      await new Promise((r) => setTimeout(r, 100));
      if (res.destroyed) return;
    }
    res.end('</urlset>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await stopBoss();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function startWorker(env: Record<string, string> = {}): ChildProcess & { output: () => string } {
  // `node --import tsx` keeps the worker one process, so SIGKILL really kills it (the tsx CLI forks a child).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/worker.ts')], {
    cwd: root,
    env: { ...process.env, JOB_STALE_SECONDS: '2', ALLOW_PRIVATE_NETWORK: 'true', ...env },
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
    await enqueue('ingest', { auditId: id, attempt: 1 });

    const first = startWorker();
    // Rows of a file become visible when its COPY ends, so "mid-file" is judged by what the server sent.
    await waitFor('the first worker to be mid-file', async () => chunksServed >= 10);
    expect(await entryCount(id)).toBe(0);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect((await getAudit(id))?.status).toBe('running');

    const second = startWorker();
    const audit = await waitFor('the audit to finish', async () => {
      const a = await getAudit(id);
      return a && isFinal(a.status) ? a : null;
    });
    second.kill('SIGTERM');
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap.entries).toBe(URLS);
    expect(await entryCount(id)).toBe(URLS);
    const { rows } = await pool().query('SELECT attempt FROM audits WHERE id = $1', [id]);
    expect(rows[0].attempt).toBe(2);
  }, 90_000);
});

describe('a job queued by another process', () => {
  it("starts at once, not at the worker's next poll", async () => {
    // Polling once a minute: only the wake-up (NOTIFY, lib/jobs/wake.ts) can start the job within the test.
    const worker = startWorker({ JOB_POLL_SECONDS: '60' });
    await waitFor('the worker to be ready', async () => worker.output().includes('worker ready'));
    // Its first polls (at start) are over and found nothing.
    await new Promise((r) => setTimeout(r, 1000));
    const id = randomUUID();
    await insertAudit(id, 'wake test', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/wake.xml` },
    ]);
    // This process has no workers of its own: enqueue can only wake the worker process.
    await enqueue('ingest', { auditId: id, attempt: 1 });
    const audit = await waitFor(
      'the audit to finish',
      async () => {
        const a = await getAudit(id);
        return a && isFinal(a.status) ? a : null;
      },
      30_000,
    );
    worker.kill('SIGTERM');
    expect(audit.status).toBe('succeeded');
    expect(audit.sitemap.entries).toBe(URLS);
  }, 60_000);
});

describe('the reaper', () => {
  it('requeues a stale audit with a new attempt, and gives up after the last attempt with a reason', async () => {
    const retry = randomUUID();
    const giveUp = randomUUID();
    await insertAudit(retry, 'stale', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
    ]);
    await insertAudit(giveUp, 'stale', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
    ]);
    await pool().query(
      `UPDATE audits SET status = 'running', heartbeat_at = now() - interval '1 hour',
         attempt = CASE WHEN id = $2 THEN $3 ELSE 1 END WHERE id IN ($1, $2)`,
      [retry, giveUp, MAX_ATTEMPTS],
    );
    const reaped = await reapStaleAudits();
    expect(reaped).toEqual(
      expect.arrayContaining([
        { id: retry, attempt: 2, status: 'queued', queue: 'ingest' },
        { id: giveUp, attempt: MAX_ATTEMPTS, status: 'failed', queue: 'ingest' },
      ]),
    );
    const failed = await getAudit(giveUp);
    expect(failed?.status).toBe('failed');
    expect(failed?.errors.at(-1)?.message).toMatch(/stopped responding 3 times/);
    expect((await getAudit(retry))?.status).toBe('queued');
    const jobs = await pool().query(
      "SELECT data FROM pgboss.job WHERE name = 'ingest' AND data->>'auditId' = $1",
      [retry],
    );
    expect(jobs.rows.map((r) => r.data)).toEqual([{ auditId: retry, attempt: 2 }]);
  });
});

describe('the reaper after ingest', () => {
  it('re-runs the reconcile job, not the ingest, for an audit that died while reconciling', async () => {
    const id = randomUUID();
    await insertAudit(id, 'stale reconcile', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/x.xml` },
    ]);
    await pool().query(
      `UPDATE audits SET status = 'running', phase = 'reconciling', heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
      [id],
    );
    const reaped = await reapStaleAudits();
    expect(reaped).toContainEqual({ id, attempt: 2, status: 'queued', queue: 'reconcile' });
    const jobs = await pool().query("SELECT name FROM pgboss.job WHERE data->>'auditId' = $1", [id]);
    expect(jobs.rows).toEqual([{ name: 'reconcile' }]);
  });
});
