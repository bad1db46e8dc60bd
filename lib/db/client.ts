// The one Prisma client and the one pg pool of a process (web server or worker). Both are created
// lazily from DATABASE_URL, which the launcher (scripts/start.ts) sets after starting Postgres.
import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { poolSize } from './config';

interface DbGlobals {
  prisma?: PrismaClient;
  pool?: pg.Pool;
}

// Next.js reloads modules in development; keep one pool per process across reloads.
const globals = globalThis as typeof globalThis & { __sitemapAuditDb?: DbGlobals };
globals.__sitemapAuditDb ??= {};
const state: DbGlobals = globals.__sitemapAuditDb;

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error('DATABASE_URL is not set: start the app with `npm start`, which provides a database');
  }
  return url;
}

export function pool(): pg.Pool {
  if (!state.pool) {
    state.pool = new pg.Pool({
      connectionString: databaseUrl(),
      max: poolSize(),
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server closes (restart, shutdown) must not take the process down with it;
    // the pool replaces it on the next query.
    state.pool.on('error', (error) => console.error(`[db] idle connection lost: ${error.message}`));
    // pg-pool listens for errors on idle connections only; a connection a dying server drops while a
    // query holds it emits 'error' on the client, which would end the process unheard. The query itself
    // rejects, so logging is all that is left to do here.
    state.pool.on('connect', (client) => {
      client.on('error', (error) => console.error(`[db] connection lost: ${error.message}`));
    });
  }
  return state.pool;
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

export function db(): PrismaClient {
  state.prisma ??= new PrismaClient({ adapter: new PrismaPg(pool()) });
  return state.prisma;
}

export async function closeDb(): Promise<void> {
  const { prisma, pool: p } = state;
  state.prisma = undefined;
  state.pool = undefined;
  await prisma?.$disconnect();
  await p?.end();
}
