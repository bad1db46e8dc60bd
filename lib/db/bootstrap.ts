// Gets this process a migrated database: DATABASE_URL when set, else the embedded server in DATA_DIR.
import 'server-only';
import pg from 'pg';
import { dataDir } from './config';
import { startEmbeddedPostgres } from './embedded';
import { migrate } from './migrate';

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

export async function migrateDatabase(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await migrate(client);
  } finally {
    await client.end();
  }
}

export async function ensureDatabase(log: (message: string) => void = () => {}): Promise<Database> {
  let database: Database;
  if (process.env.DATABASE_URL) {
    database = { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  } else {
    const server = await startEmbeddedPostgres({ dataDir: dataDir(), log });
    if (!server.owned) log(`using the PostgreSQL server already running for ${dataDir()}`);
    database = { url: server.url, embedded: true, stop: server.stop };
    process.env.DATABASE_URL = server.url;
  }
  const applied = await migrateDatabase(database.url);
  for (const name of applied) log(`applied migration ${name}`);
  return database;
}
