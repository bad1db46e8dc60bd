// The API answers 503 with Retry-After, not 500, while the database is away: errors as pg and Prisma
// really throw them (a refused connection, a terminated session), next to a genuine SQL error that stays
// a 500.
import net from 'node:net';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { toErrorResponse } from '@/lib/server/errors';
import { thrown } from '@/lib/test-support/db-restart';
import { databaseUrl } from './client';
import { isDatabaseUnavailable } from './errors';

/** A port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a database that is away', () => {
  it('is a 503 with Retry-After when pg cannot connect', async () => {
    const url = new URL(databaseUrl());
    url.port = String(await closedPort());
    const pool = new pg.Pool({ connectionString: url.toString(), connectionTimeoutMillis: 2000 });
    const error = await thrown(() => pool.query('SELECT 1'));
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
    const response = toErrorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers).toEqual({ 'retry-after': '5' });
    expect(response.body.error.code).toBe('unavailable');
    expect(JSON.stringify(response.body)).not.toContain(url.port);
  });

  it('is a 503 when Prisma cannot connect', async () => {
    const url = new URL(databaseUrl());
    url.port = String(await closedPort());
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString() }) });
    const error = await thrown(() => prisma.user.count());
    await prisma.$disconnect();
    expect(toErrorResponse(error).status).toBe(503);
  });

  it('is a 503 when the server ends the session (a restart), and a genuine SQL error stays a 500', async () => {
    const victim = new pg.Client({ connectionString: databaseUrl() });
    await victim.connect();
    victim.on('error', () => {});
    const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: databaseUrl() });
    await admin.connect();
    const ended = thrown(() => victim.query('SELECT pg_sleep(10)'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    expect(toErrorResponse(await ended).status).toBe(503);

    const bug = await thrown(() => admin.query('SELECT * FROM no_such_table'));
    expect(isDatabaseUnavailable(bug)).toBe(false);
    expect(toErrorResponse(bug).status).toBe(500);
    await admin.end();
    await victim.end().catch(() => {});
  });
});
