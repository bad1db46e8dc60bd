// ensureDatabase on a fresh embedded server: it migrates as the owner, makes the app's roles with
// passwords kept in DATA_DIR, hands each process its URL, covers tables of later migrations on the next
// start, gives the worker the partitions an older version made, and a process given a role's URL only
// checks the schema.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, ensureDatabase } from './bootstrap';
import { withConnection as as } from './connection';
import { provisionRoles } from './roles';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-bootstrap-'));
const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
const memo = globalThis as { __sitemapAuditOwner?: unknown };
let database: Database | null = null;

afterAll(async () => {
  await database?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  Object.assign(process.env, saved);
  memo.__sitemapAuditOwner = undefined;
});

const userOf = (url: string) => new URL(url).username;

describe('ensureDatabase', () => {
  it('migrates as the owner and hands the web and the worker roles of their own', async () => {
    delete process.env.DATABASE_URL;
    process.env.DATA_DIR = dataDir;
    memo.__sitemapAuditOwner = undefined;
    database = await ensureDatabase();
    expect(database.embedded).toBe(true);
    expect(userOf(database.ownerUrl as string)).toBe('postgres');
    expect(userOf(database.url)).toBe('sitemap_audit_web');
    expect(userOf(database.workerUrl)).toBe('sitemap_audit_worker');
    // This process's own work runs as the worker.
    expect(process.env.DATABASE_URL).toBe(database.workerUrl);
    expect(statSync(path.join(dataDir, 'database-roles.json')).mode & 0o777).toBe(0o600);
    const attributes = await as(
      database.ownerUrl as string,
      async (c) =>
        (
          await c.query(
            "SELECT rolname, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname LIKE 'sitemap_audit_%' ORDER BY 1",
          )
        ).rows,
    );
    expect(attributes).toEqual([
      { rolname: 'sitemap_audit_web', rolsuper: false, rolcreaterole: false, rolcreatedb: false },
      { rolname: 'sitemap_audit_worker', rolsuper: false, rolcreaterole: false, rolcreatedb: false },
    ]);
  });

  it('on the next start: grants on tables added since, the worker owns old partitions, deleted audits swept', async () => {
    const db = database as Database;
    const owner = db.ownerUrl as string;
    const kept = randomUUID();
    const gone = randomUUID();
    const hex = (id: string) => id.replaceAll('-', '');
    await as(owner, async (c) => {
      // A later migration's table, and partitions as the previous version made them (in public, the owner's).
      await c.query('CREATE TABLE later_table (i integer)');
      await c.query("INSERT INTO audits (id, name) VALUES ($1, 'kept')", [kept]);
      for (const id of [kept, gone])
        await c.query(
          `CREATE TABLE public."crawl_pages_${hex(id)}" PARTITION OF crawl_pages FOR VALUES IN ('${id}')`,
        );
    });
    await expect(as(db.url, (c) => c.query('SELECT * FROM later_table'))).rejects.toThrow(
      /permission denied/,
    );

    memo.__sitemapAuditOwner = undefined;
    delete process.env.DATABASE_URL;
    const again = await ensureDatabase();
    expect(again.url).toBe(db.url); // the same password, from DATA_DIR
    await again.stop(); // attached to the running server: stops nothing
    await as(db.url, async (c) => {
      await c.query('INSERT INTO later_table VALUES (1)');
      expect((await c.query('SELECT i FROM later_table')).rows).toEqual([{ i: 1 }]);
      await expect(c.query('TRUNCATE later_table')).rejects.toThrow(/permission denied/);
    });
    const owners = await as(
      owner,
      async (c) =>
        (
          await c.query(
            "SELECT relname, pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relname LIKE 'crawl_pages\\_%' ORDER BY 1",
          )
        ).rows,
    );
    expect(owners).toEqual([{ relname: `crawl_pages_${hex(kept)}`, owner: 'sitemap_audit_worker' }]);
  });

  it('in a process given a role’s URL, only checks that the schema is current', async () => {
    const db = database as Database;
    memo.__sitemapAuditOwner = undefined;
    process.env.DATABASE_URL = db.workerUrl;
    const child = await ensureDatabase();
    expect(child).toMatchObject({
      url: db.workerUrl,
      workerUrl: db.workerUrl,
      ownerUrl: null,
      embedded: false,
    });
  });

  it('refuses half a pair of role URLs', async () => {
    process.env.WEB_DATABASE_URL = (database as Database).url;
    try {
      await expect(provisionRoles((database as Database).ownerUrl as string, { dataDir })).rejects.toThrow(
        /WEB_DATABASE_URL and WORKER_DATABASE_URL go together/,
      );
    } finally {
      delete process.env.WEB_DATABASE_URL;
    }
  });
});
