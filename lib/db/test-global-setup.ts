// Vitest global setup for integration tests: one embedded Postgres in a throwaway DATA_DIR, migrated.
// TEST_DATABASE_URL points the suite at an existing (empty) database instead.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDatabase } from './bootstrap';
import { startEmbeddedPostgres } from './embedded';

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    await migrateDatabase(process.env.TEST_DATABASE_URL);
    project.provide('databaseUrl', process.env.TEST_DATABASE_URL);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-test-'));
  const server = await startEmbeddedPostgres({ dataDir: dir });
  await migrateDatabase(server.url);
  project.provide('databaseUrl', server.url);
  process.env.DATABASE_URL = server.url;
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
