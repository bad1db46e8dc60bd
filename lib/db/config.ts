// Runtime configuration read from the environment, with the defaults the README documents.
import path from 'node:path';

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  }
  return Math.floor(value);
}

export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data');
}

/**
 * True when this process works on a database an operator named with DATABASE_URL, which several machines
 * may share; false on the embedded server of DATA_DIR (one machine). Settings that must be the same on
 * every machine (the GSC key-encryption key) are then taken from the environment, never made in DATA_DIR.
 * Every process sees a DATABASE_URL (launchers hand their children a role's URL), so the launcher's
 * `ensureDatabase` records which it was in SITEMAP_AUDIT_DATABASE (`embedded` | `shared`) for its
 * children; a process started without it (a bare `next start`) counts DATABASE_URL as shared.
 */
export function usesSharedDatabase(env: Record<string, string | undefined> = process.env): boolean {
  const mode = env.SITEMAP_AUDIT_DATABASE;
  if (mode === 'embedded') return false;
  if (mode === 'shared') return true;
  return Boolean(env.DATABASE_URL?.trim());
}

export function uploadsDir(): string {
  return path.join(dataDir(), 'uploads');
}

export interface IngestLimits {
  maxDepth: number;
  maxFiles: number;
  maxEntries: number;
  maxFileBytes: number;
  maxUploadBytes: number;
  fetchTimeoutMs: number;
  fetchRetries: number;
}

export function ingestLimits(): IngestLimits {
  return {
    maxDepth: intEnv('SITEMAP_MAX_DEPTH', 8),
    maxFiles: intEnv('SITEMAP_MAX_FILES', 10_000),
    maxEntries: intEnv('SITEMAP_MAX_ENTRIES', 5_000_000),
    maxFileBytes: intEnv('SITEMAP_MAX_FILE_BYTES', 200 * 1024 * 1024),
    maxUploadBytes: intEnv('UPLOAD_MAX_BYTES', 1024 * 1024 * 1024),
    fetchTimeoutMs: intEnv('FETCH_TIMEOUT_MS', 30_000),
    fetchRetries: intEnv('FETCH_RETRIES', 3),
  };
}

export { intEnv };

/** Connections one step of each queue can hold at once: an ingest keeps two COPY sessions open while it
 * runs queries beside them, a reconcile works on two sessions plus a small one, an index build one. */
const CONNECTIONS_PER_SLOT = 7;

/** The pool size of a process (DB_POOL_SIZE). By default large enough for WORKER_CONCURRENCY jobs of
 * every queue at once: a smaller pool lets concurrent ingests take every connection with their COPY
 * sessions and wait for ever for one more (seen with 5 ingests on a pool of 10). */
export function poolSize(): number {
  const concurrency = Math.max(1, intEnv('WORKER_CONCURRENCY', 1));
  return intEnv('DB_POOL_SIZE', Math.max(10, CONNECTIONS_PER_SLOT * concurrency + 2));
}
