// Starts one of our TypeScript modules on a worker thread (through thread-boot.mjs, which registers tsx
// there) with a capped old generation: the crawl export's reader and the site crawl run this way.
import { Worker } from 'node:worker_threads';

export function startThread(
  entry: URL,
  input: unknown,
  resourceLimits: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb?: number },
): Worker {
  return new Worker(new URL('./thread-boot.mjs', import.meta.url), {
    workerData: { entry: entry.href, input },
    // Server-only modules load as in the worker process (scripts/node-args.ts); a CPU profiler's flags
    // carry over (BENCH_CPU_PROF in scripts/bench.ts).
    execArgv: [
      '--conditions=react-server',
      ...process.execArgv.filter((arg) => arg.startsWith('--cpu-prof')),
    ],
    resourceLimits,
  });
}
