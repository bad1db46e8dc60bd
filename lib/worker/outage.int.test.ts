// A real worker process through a Postgres crash: kill -9 of the postmaster in the middle of an audit.
// The worker must stay alive while the database is down, the interrupted audit must be retried by the
// reaper (never left running), and an audit queued after the restart must complete. Runs on a private
// embedded server, since it kills it.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { isFinal } from '@/lib/audits/schema';
import { migrateDatabase } from '@/lib/db/bootstrap';
import { closeDb, pool } from '@/lib/db/client';
import { type EmbeddedServer, startEmbeddedPostgres } from '@/lib/db/embedded';
import { stopBoss } from '@/lib/queue/queue';
import { startRun } from '@/lib/runs/service';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';
import { clusterDirOf, isRunning, postmasterPid } from '@/scripts/supervise/postgres-watch';

const root = path.resolve(import.meta.dirname, '..', '..');
const URLS = 2000;
const CHUNKS = 20;
let dataDir = '';
let server: EmbeddedServer;
let http_: http.Server;
let origin = '';
let chunksServed = 0;
/** /slow.xml stops after this many chunks until `release()`: the audit stays mid-file through the crash
 * without a pace that every run waits out. */
const HELD_AFTER = 5;
let release: () => void = () => {};
const released = new Promise<void>((r) => {
  release = r;
});
let worker: (ChildProcess & { output: () => string }) | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-outage-'));
  server = await startEmbeddedPostgres({ dataDir });
  await migrateDatabase(server.url);
  // This file's own database: the pool and queue of this process are created lazily from it.
  process.env.DATABASE_URL = server.url;
  // A 2,000-URL urlset that holds mid-file until released (/slow.xml), and a small one (/small.xml).
  http_ = http.createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    const open = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
    if (req.url === '/small.xml') {
      const urls = Array.from(
        { length: 20 },
        (_, i) => `<url><loc>https://outage.example/s/${i}</loc></url>`,
      );
      res.end(`${open}${urls.join('')}</urlset>`);
      return;
    }
    res.write(open);
    const perChunk = URLS / CHUNKS;
    for (let c = 0; c < CHUNKS; c++) {
      let chunk = '';
      for (let i = 0; i < perChunk; i++)
        chunk += `<url><loc>https://outage.example/p/${c * perChunk + i}</loc></url>`;
      res.write(chunk);
      chunksServed += 1;
      if (c + 1 === HELD_AFTER) await released;
      if (res.destroyed) return;
    }
    res.end('</urlset>');
  });
  await new Promise<void>((r) => http_.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(http_.address() as AddressInfo).port}`;
});

afterAll(async () => {
  release();
  worker?.kill('SIGKILL');
  await stopBoss().catch(() => {});
  await closeDb();
  // A killed server's own stop would wait for an exit that already happened.
  const pid = postmasterPid(dataDir);
  if (pid !== null && isRunning(pid)) await server.stop();
  http_.closeAllConnections();
  await new Promise((r) => http_.close(r));
  // As root the cluster is staged outside DATA_DIR (lib/db/embedded.ts): remove it too.
  const cluster = clusterDirOf(dataDir);
  if (cluster) rmSync(cluster, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 45_000) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const value = await probe().catch(() => null);
    if (value) return value;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const finalAudit = (id: string) => async () => {
  const a = await getAudit(id);
  return a && isFinal(a.status) ? a : null;
};

/** Starts the killed server again on its port; retried while the dead one's backends still hold its
 * shared memory (they exit within moments of their postmaster). */
async function restartPostgres(): Promise<EmbeddedServer> {
  for (let tries = 0; ; tries++) {
    try {
      return await startEmbeddedPostgres({ dataDir, port: server.port });
    } catch (error) {
      if (tries >= 20) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

describe('a worker when Postgres is killed mid-audit', () => {
  it('stays alive, the interrupted audit is retried to completion, and an audit queued after the restart completes', async () => {
    const child = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
      cwd: root,
      env: {
        ...process.env,
        ...WORKER_ENV,
        DATABASE_URL: server.url,
        JOB_STALE_SECONDS: '2',
        WORKER_HEARTBEAT_SECONDS: '1',
        ALLOW_PRIVATE_NETWORK: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (d: Buffer) => {
      output += String(d);
      if (process.env.DEBUG_WORKER) process.stdout.write(d);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    worker = Object.assign(child, { output: () => output });
    await waitFor('the worker to be ready', async () => output.includes('worker ready'));

    const interrupted = randomUUID();
    await insertAudit(interrupted, 'outage', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/slow.xml` },
    ]);
    await startRun(auditRun, interrupted);
    await waitFor('the audit to be mid-file', async () => chunksServed >= HELD_AFTER);

    const before = postmasterPid(dataDir) as number;
    process.kill(before, 'SIGKILL');
    // Down for a while: the worker's heartbeat, polls and step all fail meanwhile. The file is whole for
    // whoever reads it next.
    release();
    await waitFor('the worker to see its heartbeat fail', async () => output.includes('heartbeat failed'));
    expect(child.exitCode).toBeNull();
    server = await restartPostgres();
    expect(postmasterPid(dataDir)).not.toBe(before);

    const retried = await waitFor('the interrupted audit to end', finalAudit(interrupted));
    expect(retried.status).toBe('succeeded');
    expect(retried.sitemap.entries).toBe(URLS);
    const { rows } = await pool().query('SELECT attempt FROM audits WHERE id = $1', [interrupted]);
    expect(rows[0].attempt).toBeGreaterThanOrEqual(2);

    const after = randomUUID();
    await insertAudit(after, 'after the outage', { normalization: 'exact' }, [
      { role: 'sitemap', kind: 'url', url: `${origin}/small.xml` },
    ]);
    await startRun(auditRun, after);
    const done = await waitFor('the audit queued after the restart', finalAudit(after));
    expect(done.status).toBe('succeeded');
    expect(done.sitemap.entries).toBe(20);

    // The same worker process did all of it, and said what happened.
    expect(child.exitCode).toBeNull();
    expect(output).toMatch(/heartbeat failed/);
    expect(output).toMatch(/heartbeat: the database answers again/);
    const beats = await pool().query(
      "SELECT pid FROM worker_heartbeats WHERE beat_at > now() - interval '5 seconds'",
    );
    expect(beats.rows.map((r) => r.pid)).toContain(child.pid);
  }, 120_000);
});
