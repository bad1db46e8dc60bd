// `npm run worker`: one more worker process against the same database as `npm start`
// (DATABASE_URL, or the embedded server of DATA_DIR, started if it is not running).
import { ensureDatabase } from '@/lib/db/bootstrap';
import { startWorker } from '@/lib/jobs/worker';

const log = (message: string) => console.log(`[worker] ${message}`);

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

const database = await waitForDatabase();
const worker = await startWorker(log);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: finishing the current job and stopping`);
  await worker.stop();
  await database.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
