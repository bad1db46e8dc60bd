// The one pg pool of a process (web server, worker, or a worker thread of its own), created lazily from
// DATABASE_URL, which the launcher (scripts/start.ts) sets after starting Postgres. Apart from the Prisma
// client (client.ts): a thread that only runs SQL (the crawl) does not load Prisma's runtime and schema.
import 'server-only';
import pg from 'pg';
import { poolSize } from './config';

export interface DbGlobals {
  /** The Prisma client (client.ts) on top of the pool. */
  prisma?: { $disconnect(): Promise<void> };
  pool?: pg.Pool;
}

// Next.js reloads modules in development; keep one pool per process across reloads.
const globals = globalThis as typeof globalThis & { __sitemapAuditDb?: DbGlobals };
globals.__sitemapAuditDb ??= {};
export const dbGlobals: DbGlobals = globals.__sitemapAuditDb;

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error('DATABASE_URL is not set: start the app with `npm start`, which provides a database');
  }
  return url;
}

export function pool(): pg.Pool {
  if (!dbGlobals.pool) {
    dbGlobals.pool = new pg.Pool({
      connectionString: databaseUrl(),
      max: poolSize(),
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server closes (restart, shutdown) must not take the process down with it;
    // the pool replaces it on the next query.
    dbGlobals.pool.on('error', (error) => console.error(`[db] idle connection lost: ${error.message}`));
    // pg-pool listens for errors on idle connections only; a connection a dying server drops while a
    // query holds it emits 'error' on the client, which would end the process unheard. The query itself
    // rejects, so logging is all that is left to do here.
    dbGlobals.pool.on('connect', (client) => {
      client.on('error', (error) => console.error(`[db] connection lost: ${error.message}`));
    });
  }
  return dbGlobals.pool;
}

/**
 * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back when it
 * throws. `session` runs first, outside the transaction, for settings that must precede it.
 */
export async function transaction<T>(
  work: (client: pg.PoolClient) => Promise<T>,
  session?: (client: pg.PoolClient) => Promise<unknown>,
): Promise<T> {
  const client = await pool().connect();
  try {
    await session?.(client);
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Ends the pool (after the Prisma client on it, when there is one: see closeDb in client.ts). */
export async function closePool(): Promise<void> {
  const p = dbGlobals.pool;
  dbGlobals.pool = undefined;
  await p?.end();
}
