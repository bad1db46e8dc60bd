// Machines sharing one database (DATABASE_URL), each with a DATA_DIR of its own: two processes starting at
// once on a fresh database both migrate and provision it, end up with the same roles' passwords (kept in
// the database, not in either DATA_DIR) so neither locks the other out, and a Search Console key sealed
// by one is opened by the other under the GSC_CREDENTIALS_KEY they share, which is required there.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrls } from '@/lib/test-support/env';
import { SERVER_NODE_ARGS } from '@/scripts/node-args';
import { withConnection } from './connection';
import { listMigrations } from './migrate';
import { roleNames } from './roles';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const probe = path.join(root, 'lib/test-support/shared-database-probe.ts');
const name = `shared_${randomBytes(5).toString('hex')}`;
const ownerUrl = Object.assign(new URL(testDatabaseUrls().owner), { pathname: `/${name}` }).toString();
const maintenanceUrl = Object.assign(new URL(testDatabaseUrls().owner), { pathname: '/postgres' }).toString();
const dataDirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-machine-')));
const sharedKey = randomBytes(32).toString('base64');

interface ProbeOutput {
  url: string;
  workerUrl: string;
  auditId?: string;
  clientEmail?: string;
  error?: string;
}

/** One machine's process: its own DATA_DIR, the owner's DATABASE_URL, nothing inherited that says
 * "embedded" (the suite's own processes are told so in lib/db/test-setup.ts). */
async function machine(
  index: number,
  args: string[],
  env: Record<string, string> = {},
): Promise<ProbeOutput> {
  const { SITEMAP_AUDIT_DATABASE: _mode, GSC_CREDENTIALS_KEY: _key, ...inherited } = process.env;
  const { stdout } = await run(process.execPath, [...SERVER_NODE_ARGS, probe, ...args], {
    cwd: root,
    env: { ...inherited, DATABASE_URL: ownerUrl, DATA_DIR: dataDirs[index] as string, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as ProbeOutput;
}

beforeAll(async () => {
  await withConnection(maintenanceUrl, (c) => c.query(`CREATE DATABASE ${name}`));
});

afterAll(async () => {
  await withConnection(maintenanceUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const roles = roleNames(name);
    for (const role of [roles.web, roles.worker]) await c.query(`DROP ROLE IF EXISTS ${role}`);
  });
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function canConnect(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ user: string }>('SELECT current_user AS user')).rows[0]?.user as string;
  } finally {
    await client.end();
  }
}

describe('two machines on one DATABASE_URL', () => {
  it('start at once on a fresh database: both migrate it, once, and keep working as the same roles', async () => {
    const [a, b] = await Promise.all([machine(0, ['start']), machine(1, ['start'])]);
    expect(a?.error).toBeUndefined();
    expect(b?.error).toBeUndefined();
    const roles = roleNames(name);
    // The same passwords on both machines: whichever provisioned last did not lock the other out.
    expect(a?.url).toBe(b?.url);
    expect(a?.workerUrl).toBe(b?.workerUrl);
    expect(await canConnect(a?.url as string)).toBe(roles.web);
    expect(await canConnect(a?.workerUrl as string)).toBe(roles.worker);
    const applied = await withConnection(
      ownerUrl,
      async (c) =>
        (
          await c.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL',
          )
        ).rows[0]?.n,
    );
    expect(applied).toBe(listMigrations().length);
    // Kept by the owner in the database, where the app's roles cannot read them; no machine's DATA_DIR.
    for (const dir of dataDirs) expect(existsSync(path.join(dir, 'database-roles.json'))).toBe(false);
    await expect(
      withConnection(a?.workerUrl as string, (c) => c.query('SELECT * FROM app_private.role_passwords')),
    ).rejects.toThrow(/permission denied for schema app_private/);
  }, 60_000);

  it('a Search Console key sealed on one machine opens on the other, and neither works without the key', async () => {
    const stored = await machine(0, ['store'], { GSC_CREDENTIALS_KEY: sharedKey });
    expect(stored.error).toBeUndefined();
    const auditId = stored.auditId as string;
    const read = await machine(1, ['read', auditId], { GSC_CREDENTIALS_KEY: sharedKey });
    expect(read).toMatchObject({ clientEmail: 'probe@shared.iam.gserviceaccount.com' });
    expect(read.error).toBeUndefined();
    // Without it, no per-machine key is made in DATA_DIR: an error naming the variable instead.
    const without = await machine(1, ['read', auditId]);
    expect(without.error).toMatch(/GSC_CREDENTIALS_KEY is not set/);
    for (const dir of dataDirs) expect(existsSync(path.join(dir, 'gsc-credentials.key'))).toBe(false);
  }, 60_000);
});
