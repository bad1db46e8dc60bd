// `npm start`: Postgres (embedded unless DATABASE_URL is set), migrations, a production build of the
// dashboard when it is missing or older than the sources, then the web server and one worker.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { SERVER_NODE_ARGS } from './node-args';

const root = path.resolve(import.meta.dirname, '..');
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const log = (message: string) => console.log(`[start] ${message}`);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'generated') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(tsx?|css|json|mjs)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function buildIfNeeded(): void {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const sources = ['app', 'components', 'lib', 'public'].map((d) => path.join(root, d)).filter(existsSync);
  const newest = Math.max(
    ...sources.map(newestSource),
    statSync(path.join(root, 'package.json')).mtimeMs,
    statSync(path.join(root, 'next.config.ts')).mtimeMs,
  );
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newest && process.env.FORCE_BUILD !== '1') return;
  log('building the dashboard (first start or changed sources; takes a minute)…');
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { NEXT_TELEMETRY_DISABLED: '1', ...process.env },
  });
  if (result.status !== 0) throw new Error('next build failed; see the output above');
}

const database = await ensureDatabase(log);
buildIfNeeded();

const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const env: NodeJS.ProcessEnv = {
  NEXT_TELEMETRY_DISABLED: '1',
  ...process.env,
  DATABASE_URL: database.url,
  NODE_ENV: 'production',
};
const children = new Set<ChildProcess>();
let stopping = false;

function launch(name: string, args: string[], onExit: (code: number | null) => void): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
  children.add(child);
  child.on('exit', (code) => {
    children.delete(child);
    if (!stopping) onExit(code);
  });
  log(`${name} started (pid ${child.pid})`);
  return child;
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await database.stop();
  log('stopped');
  process.exit(code);
}

let workerRestarts = 0;
function launchWorker(): void {
  launch('worker', [...SERVER_NODE_ARGS, path.join(root, 'scripts', 'worker.ts')], (code) => {
    workerRestarts += 1;
    if (workerRestarts > 5) {
      log(`the worker keeps exiting (last code ${code}); stopping`);
      void shutdown(1);
      return;
    }
    log(`worker exited (code ${code}); restarting`);
    setTimeout(launchWorker, 1000 * workerRestarts);
  });
}

launch('web', [nextBin, 'start', '-H', host, '-p', port], (code) => {
  log(`web server exited (code ${code})`);
  void shutdown(code ?? 1);
});
launchWorker();
log(
  `dashboard: http://${host === '0.0.0.0' ? 'localhost' : host}:${port} (first visit: create the admin account there, or use \`npm run user -- create\`)`,
);

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
