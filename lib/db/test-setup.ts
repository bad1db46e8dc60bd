// Runs in every integration test worker: point the app's database client at this worker's own copy of the
// suite's database, as the worker role (the app's role with the most rights: a grant the app lacks fails a
// test; the web role's narrower rights are proved in lib/db/roles.int.test.ts).
//
// Files run in several worker processes at once, and a test file that starts a worker process, a reaper or
// lists every audit must not meet another file's jobs and rows. Each worker process (VITEST_POOL_ID) gets
// its own database, copied once from the migrated one the global setup left untouched as a template: the
// files of one process share it one after another, as they always did, and never see another's.
import 'server-only';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

const template = new URL(inject('databaseUrl')).pathname.slice(1);
const own = `${template}_${Number(process.env.VITEST_POOL_ID ?? 1)}`;

/** The same URL on this worker's database. */
function ownDatabase(url: string): string {
  const moved = new URL(url);
  moved.pathname = `/${own}`;
  return moved.toString();
}

// Connected to the maintenance database: a session on the template would stop another worker copying it.
const maintenance = new URL(inject('databaseUrl'));
maintenance.pathname = '/postgres';
const admin = new pg.Client({ connectionString: maintenance.toString() });
await admin.connect();
try {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [own]);
  if (!rowCount) {
    await admin.query(`CREATE DATABASE "${own}" TEMPLATE "${template}"`);
    // A copy takes the tables and grants but not the roles' per-database settings (the worker's
    // search_path, lib/db/roles.ts): those are set again on the copy.
    const { rows } = await admin.query<{ role: string; setting: string }>(
      `SELECT r.rolname AS role, unnest(s.setconfig) AS setting FROM pg_db_role_setting s
         JOIN pg_roles r ON r.oid = s.setrole JOIN pg_database d ON d.oid = s.setdatabase
        WHERE d.datname = $1`,
      [template],
    );
    for (const { role, setting } of rows) {
      const at = setting.indexOf('=');
      await admin.query(
        `ALTER ROLE "${role}" IN DATABASE "${own}" SET ${setting.slice(0, at)} TO ${setting.slice(at + 1)}`,
      );
    }
  }
} finally {
  await admin.end();
}

process.env.DATABASE_URL = ownDatabase(inject('workerDatabaseUrl'));
// The suite's server is an embedded one, as npm start's children are told (lib/db/config.ts
// usesSharedDatabase): the tests that need a shared database's rules set `shared` themselves.
process.env.SITEMAP_AUDIT_DATABASE = 'embedded';
/** What the tests inject, moved to this worker's database (lib/test-support/env.ts reads these). */
process.env.TEST_OWNER_DATABASE_URL = ownDatabase(inject('databaseUrl'));
process.env.TEST_WEB_DATABASE_URL = ownDatabase(inject('webDatabaseUrl'));
process.env.TEST_WORKER_DATABASE_URL = process.env.DATABASE_URL;
// Tests fetch from HTTP servers they start on 127.0.0.1.
process.env.ALLOW_PRIVATE_NETWORK = 'true';
// Uploads made by API tests go to a throwaway data directory.
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-data-'));
