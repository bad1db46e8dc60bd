import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrls } from '@/lib/test-support/env';
import { defaultMigrationsDir, listMigrations, MigrationError, migrate } from './migrate';

const adminUrl = testDatabaseUrls().owner;
const created: string[] = [];
let admin: pg.Client;

async function freshDatabase(): Promise<string> {
  const name = `migrate_test_${randomBytes(5).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  created.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function tempMigrations(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  cpSync(defaultMigrationsDir, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
});

afterAll(async () => {
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('migration runner', () => {
  it('applies every migration once and records Prisma-compatible checksums', async () => {
    const url = await freshDatabase();
    const first = await withClient(url, (c) => migrate(c));
    expect(first.length).toBeGreaterThan(0);
    const second = await withClient(url, (c) => migrate(c));
    expect(second).toEqual([]);
    const rows = await withClient(
      url,
      async (c) => (await c.query('SELECT migration_name, checksum FROM _prisma_migrations')).rows,
    );
    for (const row of rows) {
      const file = readFileSync(path.join(defaultMigrationsDir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(file).digest('hex'));
    }
  });

  it('refuses a migration that was edited after it was applied', async () => {
    const url = await freshDatabase();
    const dir = tempMigrations();
    await withClient(url, (c) => migrate(c, dir));
    const first = path.join(dir, '20261130120000_init', 'migration.sql');
    writeFileSync(first, `${readFileSync(first, 'utf8')}\n-- edited\n`);
    await expect(withClient(url, (c) => migrate(c, dir))).rejects.toThrow(/modified after it was applied/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('rolls a failing migration back, records it, and applies the fixed one later', async () => {
    const url = await freshDatabase();
    const dir = tempMigrations();
    await withClient(url, (c) => migrate(c, dir));
    const broken = path.join(dir, '20991231000000_broken');
    mkdirSync(broken);
    writeFileSync(
      path.join(broken, 'migration.sql'),
      'CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;\n',
    );
    const error = await withClient(url, (c) => migrate(c, dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/20991231000000_broken failed: .*no_such_table/);
    await withClient(url, async (c) => {
      const { rows } = await c.query("SELECT to_regclass('half_done') AS t");
      expect(rows[0].t).toBeNull();
      const rec = await c.query(
        "SELECT rolled_back_at, logs FROM _prisma_migrations WHERE migration_name = '20991231000000_broken'",
      );
      expect(rec.rows[0].rolled_back_at).toBeInstanceOf(Date);
      expect(rec.rows[0].logs).toMatch(/no_such_table/);
    });
    writeFileSync(path.join(broken, 'migration.sql'), 'CREATE TABLE half_done (id int);\n');
    expect(await withClient(url, (c) => migrate(c, dir))).toEqual(['20991231000000_broken']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves the findings of existing audits to the id-range partitioning without reading their rows', async () => {
    const url = await freshDatabase();
    const dir = tempMigrations();
    // The database as it was before this migration (and the ones after it).
    const later = mkdtempSync(path.join(os.tmpdir(), 'later-'));
    const moved = listMigrations(dir)
      .map((m) => m.name)
      .filter((name) => name >= '20261130190000');
    for (const name of moved) {
      cpSync(path.join(dir, name), path.join(later, name), { recursive: true });
      rmSync(path.join(dir, name), { recursive: true });
    }
    await withClient(url, (c) => migrate(c, dir));
    const audit = '5c1d7a52-0c8b-4c71-9d47-3f2a0f1e9b10';
    const part = `findings_${audit.replaceAll('-', '')}`;
    await withClient(url, async (c) => {
      await c.query(`INSERT INTO audits (id, name) VALUES ($1, 'before')`, [audit]);
      // As the reconcile job wrote an audit's findings before: its own table, checked, keyed, attached.
      await c.query(`CREATE TABLE "${part}" (LIKE findings INCLUDING DEFAULTS)`);
      await c.query(
        `ALTER TABLE "${part}" ADD CONSTRAINT "${part}_audit" CHECK (audit_id = '${audit}'::uuid)`,
      );
      await c.query(
        `INSERT INTO "${part}" (audit_id, id, list, reason, url, key, host, path)
         SELECT $1, g, 'prune', 'http_404', 'https://a.example/' || g, 'https://a.example/' || g, 'a.example', '/' || g
           FROM generate_series(1, 50) g`,
        [audit],
      );
      await c.query(`ALTER TABLE "${part}" ADD CONSTRAINT "${part}_pkey" PRIMARY KEY (audit_id, id)`);
      await c.query(`ALTER TABLE findings ATTACH PARTITION "${part}" FOR VALUES IN ('${audit}')`);
    });
    cpSync(later, dir, { recursive: true });
    expect(await withClient(url, (c) => migrate(c, dir))).toEqual(moved);
    await withClient(url, async (c) => {
      const bound = await c.query(
        `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound, i.inhparent::regclass::text AS parent
           FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid WHERE c.relname = $1`,
        [part],
      );
      expect(bound.rows).toEqual([
        { parent: 'findings', bound: `FOR VALUES FROM ('${audit}', MINVALUE) TO ('${audit}', MAXVALUE)` },
      ]);
      const rows = await c.query(
        'SELECT count(*)::int AS n, max(id) AS last FROM findings WHERE audit_id = $1',
        [audit],
      );
      expect(rows.rows[0]).toEqual({ n: 50, last: 50 });
      // The partition's key index now serves the new parent's key.
      const key = await c.query(
        `SELECT count(*)::int AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'findings_pkey'::regclass AND c.relname = $1`,
        [`${part}_pkey`],
      );
      expect(key.rows[0].n).toBe(1);
      expect((await c.query(`SELECT to_regclass('findings_by_audit') AS t`)).rows[0].t).toBeNull();
    });
    rmSync(dir, { recursive: true, force: true });
    rmSync(later, { recursive: true, force: true });
  });

  it('drops the findings and decision logs that deleted audits left behind, and keeps the others', async () => {
    const url = await freshDatabase();
    const dir = tempMigrations();
    const later = path.join(os.tmpdir(), `later-${randomBytes(4).toString('hex')}`);
    cpSync(path.join(dir, '20261130200000_drop_orphaned_findings'), later, { recursive: true });
    rmSync(path.join(dir, '20261130200000_drop_orphaned_findings'), { recursive: true });
    await withClient(url, (c) => migrate(c, dir));
    const kept = '0b6e2f3c-7a1d-4c2e-8f90-1a2b3c4d5e6f';
    const orphan = '9f8e7d6c-5b4a-4392-8171-605f4e3d2c1b';
    await withClient(url, async (c) => {
      await c.query(`INSERT INTO audits (id, name) VALUES ($1, 'kept')`, [kept]);
      for (const audit of [kept, orphan]) {
        const hex = audit.replaceAll('-', '');
        await c.query(
          `CREATE TABLE "findings_${hex}" PARTITION OF findings FOR VALUES FROM ('${audit}', MINVALUE) TO ('${audit}', MAXVALUE)`,
        );
        await c.query(
          `CREATE TABLE "decision_log_${hex}" PARTITION OF decision_log FOR VALUES IN ('${audit}')`,
        );
      }
    });
    cpSync(later, path.join(dir, '20261130200000_drop_orphaned_findings'), { recursive: true });
    expect(await withClient(url, (c) => migrate(c, dir))).toEqual(['20261130200000_drop_orphaned_findings']);
    const left = await withClient(url, async (c) =>
      (
        await c.query<{ relname: string }>(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent IN ('findings'::regclass, 'decision_log'::regclass) ORDER BY 1`,
        )
      ).rows.map((r) => r.relname),
    );
    const hex = kept.replaceAll('-', '');
    expect(left).toEqual([`decision_log_${hex}`, `findings_${hex}`]);
    rmSync(dir, { recursive: true, force: true });
    rmSync(later, { recursive: true, force: true });
  });

  it('serialises concurrent runners so each migration is applied exactly once', async () => {
    const url = await freshDatabase();
    const results = await Promise.all([1, 2, 3].map(() => withClient(url, (c) => migrate(c))));
    expect(results.flat().sort()).toEqual(listMigrations().map((m) => m.name));
    const count = await withClient(
      url,
      async (c) => (await c.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0].n,
    );
    expect(count).toBe(listMigrations().length);
  });
});
