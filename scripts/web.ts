// `npm run web`: the web server alone (no worker, no embedded Postgres) against the database every machine
// shares, DATABASE_URL. Any number of these beside any number of `npm run worker`s is the scaled-out
// topology (docs/operations.md); `npm start` stays the all-in-one. Like npm start it migrates as the owner,
// provisions the app's roles, builds the dashboard when needed and keeps `next start` running as the web
// role, restarting it when it exits; SIGINT/SIGTERM stop it.
import { ensureDatabase } from '@/lib/db/bootstrap';
import { buildIfNeeded, nextBin, root } from './next-build';
import { policyFromEnv } from './supervise/restart-policy';
import { supervise } from './supervise/supervisor';

const log = (message: string) => console.log(`[web] ${message}`);

if (!process.env.DATABASE_URL?.trim()) {
  console.error(
    '[web] npm run web needs the shared database: set DATABASE_URL to the PostgreSQL server that every web ' +
      'server and worker use (docs/operations.md). To run everything on this machine with an embedded ' +
      'database, use npm start.',
  );
  process.exit(1);
}

const policy = policyFromEnv(process.env);
const database = await ensureDatabase(log);
buildIfNeeded(log);

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const web = supervise(
  {
    name: 'web',
    command: process.execPath,
    args: [nextBin, 'start', '-H', host, '-p', port],
    options: () => ({
      cwd: root,
      env: {
        NEXT_TELEMETRY_DISABLED: '1',
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
      },
      stdio: 'inherit',
    }),
  },
  policy,
  log,
);
log(
  `dashboard: http://${host === '0.0.0.0' ? 'localhost' : host}:${port} (no worker here: start npm run worker)`,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping…`);
  await web.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
