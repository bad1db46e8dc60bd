import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { defaultMigrationsDir, listMigrations, MigrationError, migrate } from './migrate';

const adminUrl = inject('databaseUrl');
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
