// `npm run worker`: one more worker process against the same database as `npm start`
// (DATABASE_URL, or the embedded server of DATA_DIR, started if it is not running).
import { ensureDatabase } from '@/lib/db/bootstrap';
import { describeStorage, storageConfig } from '@/lib/storage/config';
import { startWorker } from '@/lib/worker/worker';
import { watchOwnedPostgres } from './supervise/postgres-watch';
import { policyFromEnv } from './supervise/restart-policy';

const log = (message: string) => console.log(`[worker] ${message}`);
const policy = policyFromEnv(process.env);

// A worker started while Postgres is down (restarted by npm start's watcher, or by whoever runs it) waits
// for it instead of exiting: exiting only made the launcher restart it in a loop.
async function waitForDatabase(): ReturnType<typeof ensureDatabase> {
  for (let delay = 1000; ; delay = Math.min(delay * 2, 30_000)) {
    try {
      return await ensureDatabase(log);
    } catch (error) {
      log(`the database is not available (${(error as Error).message}); retrying in ${delay / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

// Signals are handled from the first moment: a SIGTERM that arrived while the worker was starting (its
// first heartbeat already written) used to end the process by default, leaving a heartbeat that looked live.
let stopping = false;
let started: Promise<() => Promise<void>> | null = null;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: finishing the current job and stopping`);
  const stop = await started?.catch(() => null);
  await stop?.();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

started = (async () => {
  // Checked before waiting for the database: a half-configured bucket is not something a retry fixes.
  log(`uploads are stored on ${describeStorage(storageConfig())}`);
  const database = await waitForDatabase();
  // Started alone (no npm start), this worker may be the one that started the embedded server: it then
  // restarts it too, as npm start would.
  const watch = watchOwnedPostgres(database, policy, log);
  const worker = await startWorker(log);
  return async () => {
    watch?.unwatch();
    await worker.stop();
    await (watch ? watch.stop() : database.stop());
  };
})();
await started;
