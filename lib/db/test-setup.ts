// Runs in every integration test worker: point the app's database client at the suite's database, as the
// worker role (the app's role with the most rights: a grant the app lacks fails a test; the web role's
// narrower rights are proved in lib/db/roles.int.test.ts).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

process.env.DATABASE_URL = inject('workerDatabaseUrl');
// Tests fetch from HTTP servers they start on 127.0.0.1.
process.env.ALLOW_PRIVATE_NETWORK = 'true';
// Uploads made by API tests go to a throwaway data directory.
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-data-'));
