// `npm run worker`: one more worker process against the same database as `npm start`
// (DATABASE_URL, or the embedded server of DATA_DIR, started if it is not running).
import { ensureDatabase } from '@/lib/db/bootstrap';
import { startWorker } from '@/lib/jobs/worker';

const log = (message: string) => console.log(`[worker] ${message}`);
const database = await ensureDatabase(log);
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
