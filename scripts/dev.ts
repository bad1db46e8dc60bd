// `npm run dev`: like `npm start` but with the Next.js dev server (hot reload) instead of a build.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { SERVER_NODE_ARGS } from './node-args';

const root = path.resolve(import.meta.dirname, '..');
const log = (message: string) => console.log(`[dev] ${message}`);
const database = await ensureDatabase(log);
const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url };
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const children: ChildProcess[] = [
  spawn(
    process.execPath,
    [path.join(root, 'node_modules/next/dist/bin/next'), 'dev', '-H', host, '-p', port],
    { cwd: root, env, stdio: 'inherit' },
  ),
  spawn(process.execPath, [...SERVER_NODE_ARGS, '--watch', path.join(root, 'scripts/worker.ts')], {
    cwd: root,
    env,
    stdio: 'inherit',
  }),
];
async function stop() {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await database.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
