// Vitest global setup for integration tests: one embedded Postgres in a throwaway DATA_DIR, migrated and
// with the app's roles, as `npm start` leaves it; each test worker then works on its own copy of it
// (lib/db/test-setup.ts). TEST_DATABASE_URL points the suite at an existing (empty) database instead, whose
// user must be allowed to create roles and databases (the copies, made through the `postgres` database).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from './bootstrap';
import { startEmbeddedPostgres } from './embedded';
import { provisionRoles } from './roles';

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-test-'));
  const server = process.env.TEST_DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: dir });
  const ownerUrl = server?.url ?? (process.env.TEST_DATABASE_URL as string);
  await migrateDatabase(ownerUrl);
  const roles = await provisionRoles(ownerUrl, { dataDir: dir });
  if (!roles.leastPrivilege) throw new Error('the test database user must be allowed to create roles');
  project.provide('databaseUrl', ownerUrl);
  project.provide('webDatabaseUrl', roles.webUrl);
  project.provide('workerDatabaseUrl', roles.workerUrl);
  process.env.DATABASE_URL = roles.workerUrl;
  return async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
    // As root the cluster may live outside the throwaway dir (lib/db/embedded.ts): remove it too, or every
    // run leaves a cluster behind in /var/lib/sitemap-audit/clusters.
    if (server && !server.clusterDir.startsWith(dir))
      rmSync(server.clusterDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The owner's (migrations, and tests that must act as the administrator: CREATE DATABASE …). */
    databaseUrl: string;
    /** The roles the app connects as (lib/db/roles.ts). */
    webDatabaseUrl: string;
    workerDatabaseUrl: string;
  }
}
