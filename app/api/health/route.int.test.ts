// GET /api/health through its real route handler, on a private database it can stop: healthy with a live
// worker process, 503 without one (none started, or only a stale beat), 503 when the database is down.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { insertAudit } from '@/lib/audits/mutations';
import { migrateDatabase } from '@/lib/db/bootstrap';
import { closeDb, pool } from '@/lib/db/client';
import { type EmbeddedServer, startEmbeddedPostgres } from '@/lib/db/embedded';
import type { HealthReport } from '@/lib/health/types';
import { stopBoss } from '@/lib/queue/queue';
import { startRun } from '@/lib/runs/service';
import { config as proxyConfig } from '@/proxy';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';
import { clusterDirOf } from '@/scripts/supervise/postgres-watch';
import { GET } from './route';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
let dataDir = '';
let server: EmbeddedServer;
let serverStopped = false;
let worker: ChildProcess | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-health-'));
  server = await startEmbeddedPostgres({ dataDir });
  await migrateDatabase(server.url);
  process.env.DATABASE_URL = server.url;
  // A worker is live while it beat within 3 s (three beats of 1 s).
  process.env.WORKER_HEARTBEAT_SECONDS = '1';
  // One queued audit (pg-boss creates its tables when the first job is sent).
  const id = randomUUID();
  await insertAudit(id, 'health', { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'url', url: 'http://127.0.0.1:9/none.xml' },
  ]);
  await startRun(auditRun, id);
});

afterAll(async () => {
  worker?.kill('SIGKILL');
  await stopBoss().catch(() => {});
  await closeDb();
  if (!serverStopped) await server.stop();
  // As root the cluster is staged outside DATA_DIR (lib/db/embedded.ts): remove it too.
  const cluster = clusterDirOf(dataDir);
  if (cluster) rmSync(cluster, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function health(): Promise<{ status: number; body: HealthReport; text: string }> {
  const res = await GET(new Request('http://localhost/api/health'), undefined);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

async function until(what: string, probe: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GET /api/health', () => {
  it('is not behind the page proxy (no session, no redirect to /login)', () => {
    const source = proxyConfig.matcher[0]?.source as string;
    expect(new RegExp(`^${source}$`).test('/api/health')).toBe(false);
    expect(new RegExp(`^${source}$`).test('/audits')).toBe(true);
  });

  it('answers 503 when no worker has sent a heartbeat, with the database and queue depth', async () => {
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.status).toBe('unhealthy');
    expect(body.problems).toEqual(['no worker has sent a heartbeat in the last 3 s']);
    expect(body.database).toEqual({ reachable: true, latencyMs: expect.any(Number) });
    expect(body.queues).toEqual([
      { name: 'ingest', queued: 1, active: 0 },
      { name: 'add-crawl', queued: 0, active: 0 },
      { name: 'crawl-site', queued: 0, active: 0 },
      { name: 'reconcile', queued: 0, active: 0 },
      { name: 'site-history', queued: 0, active: 0 },
      { name: 'index-findings', queued: 0, active: 0 },
      { name: 'spot-check-select', queued: 0, active: 0 },
      { name: 'spot-check', queued: 0, active: 0 },
      { name: 'gsc-import', queued: 0, active: 0 },
      { name: 'gsc-inspection-select', queued: 0, active: 0 },
      { name: 'gsc-inspection', queued: 0, active: 0 },
      { name: 'lint', queued: 0, active: 0 },
      { name: 'site-schedules', queued: 0, active: 0 },
      { name: 'webhook-delivery', queued: 0, active: 0 },
    ]);
    expect(body.workers).toEqual({ live: 0, liveWithinSeconds: 3, beating: [], heartbeats: [] });
  });

  it('answers 200 while a real worker process beats, and 503 again when its only beat is stale', async () => {
    worker = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
      cwd: root,
      env: { ...process.env, ...WORKER_ENV, DATABASE_URL: server.url, JOB_POLL_SECONDS: '60' },
      stdio: 'ignore',
    });
    const pid = worker.pid;
    await until('the worker to beat', async () => (await health()).status === 200);
    const { body } = await health();
    expect(body.status).toBe('ok');
    expect(body.problems).toEqual([]);
    expect(body.workers?.live).toBe(1);
    expect(body.workers?.heartbeats).toEqual([
      expect.objectContaining({ pid, concurrency: 1, live: true, ageSeconds: expect.any(Number) }),
    ]);
    expect(body.workers?.beating).toEqual([
      expect.objectContaining({ pid, host: os.hostname(), runsTaken: 0, startedAt: expect.any(String) }),
    ]);

    // Stopped cleanly, it removes its row; a worker that died leaves one that ages.
    const stopped = worker;
    stopped.kill('SIGTERM');
    await new Promise((r) => stopped.once('exit', r));
    worker = null;
    await pool().query(
      "INSERT INTO worker_heartbeats (id, pid, concurrency, beat_at) VALUES ('dead-1', 4242, 1, now() - interval '1 minute')",
    );
    const after = await health();
    expect(after.status).toBe(503);
    expect(after.body.workers?.live).toBe(0);
    expect(after.body.workers?.heartbeats).toEqual([
      expect.objectContaining({ id: 'dead-1', pid: 4242, live: false, ageSeconds: expect.any(Number) }),
    ]);
    expect(after.body.workers?.heartbeats[0]?.ageSeconds).toBeGreaterThanOrEqual(59);
    expect(after.body.workers?.beating).toEqual([]);
  }, 60_000);

  it('answers 503 quickly when the database is down, and names no host, port or password', async () => {
    await server.stop();
    serverStopped = true;
    const started = Date.now();
    const { status, body, text } = await health();
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: 'unhealthy',
      problems: ['the database is unreachable'],
      database: { reachable: false, error: 'unreachable' },
      queues: null,
      workers: null,
    });
    const url = new URL(server.url);
    for (const secret of [decodeURIComponent(url.password), url.port, url.username, '127.0.0.1']) {
      expect(text).not.toContain(secret);
    }
  });
});
