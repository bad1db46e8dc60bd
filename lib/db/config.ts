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
