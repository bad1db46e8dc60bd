// The e2e server's own database (DATABASE_URL, else the embedded PostgreSQL of its DATA_DIR that
// playwright.config.ts sets), for the two things a page cannot show without the real clock: the worker being
// done with a run's step, and the scheduler's tick of a due minute. The app itself is not changed for tests:
// these go through the same tables and queue its processes use.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import pg from 'pg';
import PgBoss from 'pg-boss';

const dataDir = path.resolve(import.meta.dirname, '..', 'test-results', 'e2e-data');

/** The owner's URL, as lib/db/embedded.ts builds it from the files it keeps in the data directory. */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  const { port } = JSON.parse(readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number };
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/sitemap_audit`;
}

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Waits until every queued job of `runId`'s `step` (pg-boss queue) has ended: the worker has let go of
 * the run, so whatever the page shows next is final. */
export async function expectStepEnded(runId: string, step: string): Promise<void> {
  await expect
    .poll(
      () =>
        withClient(async (client) => {
          const { rows } = await client.query<{ state: string }>(
            "SELECT state FROM pgboss.job WHERE name = $1 AND data->>'runId' = $2",
            [step, runId],
          );
          return (
            rows.length > 0 && rows.every((row) => ['completed', 'failed', 'cancelled'].includes(row.state))
          );
        }),
      { message: `the ${step} job of ${runId} ended`, timeout: 30_000 },
    )
    .toBe(true);
}

/**
 * The scheduler's tick, now instead of at the next minute: the site's enabled schedules are made due (their
 * next time is now, as when their minute comes) and the tick job goes through the queue, as pg-boss's cron
 * sends it every minute (lib/worker/worker.ts SCHEDULE_TICK). The worker's tick then claims them and starts
 * their runs by its usual path (lib/audit-runs/jobs/schedule-tick.ts); that the cron sends the tick each minute is
 * lib/audit-runs/jobs/schedule-worker.int.test.ts's to prove.
 */
export async function tickSchedulesNow(siteId: string): Promise<void> {
  const due = await withClient(async (client) => {
    const { rowCount } = await client.query(
      'UPDATE site_schedules SET next_run_at = now() WHERE site_id = $1 AND enabled',
      [siteId],
    );
    return rowCount ?? 0;
  });
  expect(due, 'an enabled schedule of the site').toBeGreaterThan(0);
  const boss = new PgBoss({
    connectionString: databaseUrl(),
    max: 1,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  await boss.start();
  let job: string | null;
  try {
    job = await boss.send('site-schedules', {}, { singletonKey: randomUUID(), retryLimit: 0 });
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
  expect(job, 'the tick job queued').toBeTruthy();
  // The worker took this tick and ran it to its end (a failed tick is logged by the worker, not retried).
  await expect
    .poll(
      () =>
        withClient(async (client) => {
          const { rows } = await client.query<{ state: string }>(
            "SELECT state FROM pgboss.job WHERE name = 'site-schedules' AND id = $1",
            [job],
          );
          return rows[0]?.state;
        }),
      { message: 'the tick job ran', timeout: 30_000 },
    )
    .toBe('completed');
}
