// Starts extra embedded clusters the way `npm start` does, including the root case where DATA_DIR sits
// in a folder the postgres user cannot traverse (like a clone under /root).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { nativeDir, postgresIds, stageBinaries, startEmbeddedPostgres } from './embedded';

const isRoot = process.getuid?.() === 0;
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

async function query(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('starts in a DATA_DIR inside a folder other users cannot traverse, and is reused on the next start', async () => {
    const locked = mkdtempSync(path.join(os.tmpdir(), 'locked-'));
    chmodSync(locked, 0o700);
    cleanup.push(locked);
    const dataDir = path.join(locked, 'project', '.data');
    const stagingRoot = mkdtempSync(path.join(os.tmpdir(), 'staging-'));
    chmodSync(stagingRoot, 0o755);
    cleanup.push(stagingRoot);

    const first = await startEmbeddedPostgres({ dataDir, stagingRoot });
    expect(first.owned).toBe(true);
    if (isRoot) {
      // The postgres user cannot reach `locked`, so the cluster was placed where it can, and DATA_DIR says where.
      expect(first.clusterDir.startsWith(stagingRoot)).toBe(true);
      expect(readFileSync(path.join(dataDir, 'POSTGRES_CLUSTER_LOCATION.txt'), 'utf8')).toContain(
        first.clusterDir,
      );
    } else {
      expect(first.clusterDir).toBe(path.join(dataDir, 'postgres'));
    }
    await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");

    const attached = await startEmbeddedPostgres({ dataDir, stagingRoot });
    expect(attached.owned).toBe(false);
    expect(attached.port).toBe(first.port);

    await first.stop();
    expect(existsSync(path.join(first.clusterDir, 'postmaster.pid'))).toBe(false);

    const again = await startEmbeddedPostgres({ dataDir, stagingRoot });
    try {
      expect(again.clusterDir).toBe(first.clusterDir);
      expect(await query(again.url, 'SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
    } finally {
      await again.stop();
    }
  });
});

describe('staged PostgreSQL binaries', () => {
  it('run for the server user from a staging folder it can reach', async () => {
    const stagingRoot = mkdtempSync(path.join(os.tmpdir(), 'bin-staging-'));
    chmodSync(stagingRoot, 0o755);
    cleanup.push(stagingRoot);
    const native = nativeDir();
    const staged = stageBinaries(native.dir, native.version, stagingRoot);
    expect(existsSync(path.join(staged, '.complete'))).toBe(true);
    const ids = isRoot ? postgresIds() : {};
    const run = spawnSync(path.join(staged, 'bin', 'postgres'), ['--version'], { ...ids, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/postgres \(PostgreSQL\) \d+/);
    // A second call reuses the finished copy instead of copying again.
    expect(stageBinaries(native.dir, native.version, stagingRoot)).toBe(staged);
  });
});
