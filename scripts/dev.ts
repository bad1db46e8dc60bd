// `npm run dev`: like `npm start` but with the Next.js dev server (hot reload) instead of a build. The worker
// runs under `node --watch` (restarted on file changes); the embedded Postgres is watched as in npm start.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { describeStorage, storageConfig } from '@/lib/storage/config';
import { SERVER_NODE_ARGS, WORKER_ENV } from './node-args';
import { watchOwnedPostgres } from './supervise/postgres-watch';
import { policyFromEnv } from './supervise/restart-policy';

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.log(`[dev] ${message}`);
const policy = policyFromEnv(process.env);
log(`uploads are stored on ${describeStorage(storageConfig())}`);
const database = await ensureDatabase(log);
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const children: ChildProcess[] = [
  spawn(
    process.execPath,
    [path.join(root, 'node_modules/next/dist/bin/next'), 'dev', '-H', host, '-p', port],
    { cwd: root, env: { ...process.env, DATABASE_URL: database.url }, stdio: 'inherit' },
  ),
  // Through tsx, not the bundle npm start runs: --watch then follows the TypeScript sources.
  spawn(process.execPath, [...SERVER_NODE_ARGS, '--watch', path.join(root, 'scripts/worker.ts')], {
    cwd: root,
    env: { ...process.env, ...WORKER_ENV, DATABASE_URL: database.workerUrl },
    stdio: 'inherit',
  }),
];
const watch = watchOwnedPostgres(database, policy, log);
async function stop() {
  watch?.unwatch();
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await (watch ? watch.stop() : database.stop());
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
