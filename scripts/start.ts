// `npm start`: Postgres (embedded unless DATABASE_URL is set), migrations, a production build of the
// dashboard when it is missing or older than the sources, then the web server and one worker, each kept
// running on its own (scripts/supervise): a child that exits is restarted, the embedded Postgres too, and
// only SIGINT/SIGTERM stop the app.
import { ensureDatabase } from '@/lib/db/bootstrap';
import { dataDir } from '@/lib/db/config';
import { describeStorage, storageConfig } from '@/lib/storage/config';
import { buildIfNeeded, nextBin, root } from './next-build';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from './node-args';
import { ownsPostgres, type PostgresWatch, watchEmbeddedPostgres } from './supervise/postgres-watch';
import { policyFromEnv } from './supervise/restart-policy';
import { type Supervised, supervise } from './supervise/supervisor';

const log = (message: string) => console.log(`[start] ${message}`);

const policy = policyFromEnv(process.env);
// A half-configured bucket stops the start here, before anything is started, naming what is missing.
log(`uploads are stored on ${describeStorage(storageConfig())}`);
const database = await ensureDatabase(log);
buildIfNeeded(log);

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const env: NodeJS.ProcessEnv = {
  NEXT_TELEMETRY_DISABLED: '1',
  ...process.env,
  NODE_ENV: 'production',
};
// Each child connects as its own role (lib/db/roles.ts); a restarted Postgres on a new port rewrites both.
const urls = { web: database.url, worker: database.workerUrl };

const web = supervise(
  {
    name: 'web',
    command: process.execPath,
    args: [nextBin, 'start', '-H', host, '-p', port],
    options: () => ({ cwd: root, env: { ...env, DATABASE_URL: urls.web }, stdio: 'inherit' }),
  },
  policy,
  log,
);
const worker = supervise(
  {
    name: 'worker',
    command: process.execPath,
    args: [...WORKER_NODE_ARGS, WORKER_SCRIPT],
    options: () => ({
      cwd: root,
      env: { ...env, ...WORKER_ENV, DATABASE_URL: urls.worker },
      stdio: 'inherit',
    }),
  },
  policy,
  log,
);
const children: Supervised[] = [web, worker];

// The embedded server this process started is watched and started again when it dies; one another
// process owns (a second `npm start` of the same DATA_DIR) is that process's to restart.
let watch: PostgresWatch | null = null;
if (database.embedded && ownsPostgres(dataDir())) {
  let dbPort = Number(new URL(database.url).port);
  watch = watchEmbeddedPostgres({
    dataDir: dataDir(),
    port: dbPort,
    policy,
    log,
    stopFirst: database.stop,
    onRestarted(url) {
      const now = new URL(url).port;
      if (Number(now) === dbPort) return;
      // The old port was taken meanwhile: the children must reconnect elsewhere, so they restart.
      log(`PostgreSQL came back on port ${now} instead of ${dbPort}; restarting the web server and worker`);
      dbPort = Number(now);
      const move = (u: string) => Object.assign(new URL(u), { port: now }).toString();
      urls.web = move(urls.web);
      urls.worker = move(urls.worker);
      for (const child of children) child.restart();
    },
  });
}

log(
  `dashboard: http://${host === '0.0.0.0' ? 'localhost' : host}:${port} (first visit: create the admin account there, or use \`npm run user -- create\`)`,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping…`);
  watch?.unwatch();
  await Promise.all(children.map((child) => child.stop()));
  // Through the watch, which knows which server runs now (the first one, or the one it restarted).
  await (watch ? watch.stop() : database.stop());
  log('stopped');
  process.exit(0);
}

process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
