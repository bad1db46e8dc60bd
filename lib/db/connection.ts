// One connection of its own, outside the pool: migrations, role provisioning, and tests that must act as a
// given role (the URL names it).
import 'server-only';
import pg from 'pg';

/** Runs `work` on a new connection to `url`, closed afterwards whatever happens. */
export async function withConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
