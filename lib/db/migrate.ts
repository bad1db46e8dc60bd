// Applies prisma/migrations/<timestamp>_<name>/migration.sql in order and records each one in
// _prisma_migrations exactly as Prisma Migrate does (same table, sha256 checksum), because Prisma's
// own migration engine is a download this environment cannot make. `prisma migrate deploy` agrees.
import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';

export const defaultMigrationsDir = path.resolve(import.meta.dirname, '..', '..', 'prisma', 'migrations');

// Prisma Migrate serialises concurrent runs with this advisory lock key; using it keeps us and Prisma exclusive.
const PRISMA_ADVISORY_LOCK = 72707369;

const createMigrationsTable = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration?: string,
  ) {
    super(message);
    this.name = 'MigrationError';
  }
}

export function listMigrations(dir = defaultMigrationsDir): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(dir, name, 'migration.sql'));
      return {
        name,
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** Applies pending migrations on one dedicated connection. Returns the names applied now. */
export async function migrate(client: pg.ClientBase, dir = defaultMigrationsDir): Promise<string[]> {
  const migrations = listMigrations(dir);
  await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
  try {
    await client.query(createMigrationsTable);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const applied = new Map<string, AppliedRow>();
    for (const row of rows) {
      if (row.rolled_back_at) continue;
      if (!row.finished_at) {
        throw new MigrationError(
          `Migration ${row.migration_name} started but never finished; inspect the database, then mark it rolled back`,
          row.migration_name,
        );
      }
      applied.set(row.migration_name, row);
    }
    const done: string[] = [];
    for (const m of migrations) {
      const previous = applied.get(m.name);
      if (previous) {
        if (previous.checksum !== m.checksum) {
          throw new MigrationError(
            `Migration ${m.name} was modified after it was applied (checksum mismatch); add a new migration instead`,
            m.name,
          );
        }
        continue;
      }
      await applyOne(client, m);
      done.push(m.name);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]);
  }
}

async function applyOne(client: pg.ClientBase, m: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query(
    'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
    [id, m.checksum, m.name],
  );
  try {
    await client.query('BEGIN');
    await client.query(m.sql);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    const reason = error instanceof Error ? error.message : String(error);
    // The SQL ran in one transaction, so nothing of it remains: record the failure as rolled back so a
    // fixed migration can be applied on the next start.
    await client.query('UPDATE "_prisma_migrations" SET logs = $2, rolled_back_at = now() WHERE id = $1', [
      id,
      reason,
    ]);
    throw new MigrationError(`Migration ${m.name} failed: ${reason}`, m.name);
  }
  await client.query(
    'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
    [id],
  );
}
