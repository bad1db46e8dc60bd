// The embedded Postgres watcher against a real server: kill -9 of the postmaster, and the watcher starts
// it again on the same port, where a pool that held connections to the dead server answers at once.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedServer, startEmbeddedPostgres } from '@/lib/db/embedded';
import {
  clusterDirOf,
  isRunning,
  ownsPostgres,
  type PostgresWatch,
  postmasterPid,
  watchEmbeddedPostgres,
} from './postgres-watch';

const policy = {
  maxRestarts: 5,
  windowMs: 60_000,
  baseDelayMs: 200,
  maxDelayMs: 1_000,
  coolDownMs: 5_000,
  stableAfterMs: 10_000,
};

let dataDir = '';
let server: EmbeddedServer;
let watch: PostgresWatch | null = null;
let firstPid: number | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-watch-'));
  server = await startEmbeddedPostgres({ dataDir });
  firstPid = postmasterPid(dataDir);
});

afterAll(async () => {
  // The watch stops whichever server runs; the first one's own stop would wait for ever once it was killed.
  if (watch) await watch.stop();
  else if (server && postmasterPid(dataDir) === firstPid) await server.stop();
  // As root the cluster is staged outside DATA_DIR (lib/db/embedded.ts): remove it too.
  const cluster = clusterDirOf(dataDir);
  if (cluster) rmSync(cluster, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(what: string, probe: () => boolean, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('watchEmbeddedPostgres', () => {
  it('restarts a postmaster killed with SIGKILL, and a pool query succeeds on its first try afterwards', async () => {
    expect(ownsPostgres(dataDir)).toBe(true);
    const pool = new pg.Pool({ connectionString: server.url, max: 3 });
    const lost: string[] = [];
    pool.on('error', (error) => lost.push(error.message));
    // Three idle connections to the server that is about to die.
    await Promise.all([1, 2, 3].map(() => pool.query('SELECT pg_sleep(0.05)')));
    expect(pool.idleCount).toBe(3);

    const logs: string[] = [];
    watch = watchEmbeddedPostgres({
      dataDir,
      port: server.port,
      policy,
      intervalMs: 100,
      log: (m) => logs.push(m),
      stopFirst: server.stop,
    });
    const first = postmasterPid(dataDir) as number;
    process.kill(first, 'SIGKILL');

    await until('the watcher to restart PostgreSQL', () => watch?.restarts() === 1);
    const second = postmasterPid(dataDir) as number;
    expect(second).not.toBe(first);
    expect(isRunning(second)).toBe(true);
    expect(ownsPostgres(dataDir)).toBe(true);
    expect(logs.join('\n')).toMatch(
      new RegExp(`PostgreSQL \\(pid ${first}\\) is gone; restarting it in 0.2 s`),
    );
    expect(logs.join('\n')).toMatch(
      new RegExp(`PostgreSQL is back \\(pid ${second}, port ${server.port}\\)`),
    );

    // The idle connections died with their server and left the pool; the first query gets a new one.
    const { rows } = await pool.query('SELECT 1 AS one');
    expect(rows[0].one).toBe(1);
    expect(lost.length).toBeGreaterThan(0);
    await pool.end();
    await watch.stop();
    expect(isRunning(second)).toBe(false);
    watch = null;
  }, 60_000);

  it('does not count a data directory without a running server as its own', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-watch-none-'));
    expect(ownsPostgres(empty)).toBe(false);
    expect(postmasterPid(empty)).toBeNull();
    rmSync(empty, { recursive: true, force: true });
  });
});
