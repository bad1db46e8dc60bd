// Runs in every integration test worker: point the app's database client at the suite's database.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

process.env.DATABASE_URL = inject('databaseUrl');
// Tests fetch from HTTP servers they start on 127.0.0.1.
process.env.ALLOW_PRIVATE_NETWORK = 'true';
// Uploads made by API tests go to a throwaway data directory.
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-data-'));
