// The worker process as the benchmark starts it: as the product runs it, or from the sources to profile.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_ARGS, WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '../node-args';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface BenchWorker extends ChildProcess {
  /** The worker's `[sql]` lines, when it was started to profile. */
  sqlTrace: string[];
}

/**
 * Starts the worker as the product runs it (scripts/worker.mjs: bundled, no tsx) and waits until it is
 * ready; its log goes to this process's stdout. To profile (`cpuProfDir`), it runs from the TypeScript
 * sources through tsx so that each profile sample names its module, with `SQL_TRACE=1`.
 */
export async function startWorker(
  workerUrl: string,
  options: { cpuProfDir?: string; env?: Record<string, string> } = {},
): Promise<BenchWorker> {
  const { cpuProfDir } = options;
  const args = cpuProfDir
    ? // V8 CPU profiles of the worker's threads (open them in Chrome's DevTools, or see scripts/bench/stages.ts).
      [
        '--cpu-prof',
        `--cpu-prof-dir=${cpuProfDir}`,
        ...SERVER_NODE_ARGS,
        path.join(root, 'scripts/worker.ts'),
      ]
    : [...WORKER_NODE_ARGS, WORKER_SCRIPT];
  const worker = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      ...options.env,
      ...WORKER_ENV,
      DATABASE_URL: workerUrl,
      ...(cpuProfDir ? { SQL_TRACE: '1', BUNDLE_THREADS: '0' } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  }) as BenchWorker;
  worker.sqlTrace = [];
  let partial = '';
  // A worker runs all the time in the product: the timing starts once it is ready (modules loaded,
  // queues polled), not while it is still starting up on the same two cores.
  await new Promise<void>((resolve, reject) => {
    worker.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('[sql]')) worker.sqlTrace.push(line);
        else process.stdout.write(`${line}\n`);
        if (line.includes('worker ready')) resolve();
      }
    });
    worker.once('exit', (code) => reject(new Error(`the worker exited (code ${code}) before it was ready`)));
  });
  await new Promise((r) => setTimeout(r, 500));
  return worker;
}
