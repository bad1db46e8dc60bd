// Starts one of our TypeScript modules on a worker thread with a capped old generation: the crawl export's
// reader and the site crawl run this way. The thread runs the module bundled into plain JavaScript
// (bundle.mjs), built once per process: it loads no TypeScript loader, which through tsx cost a crawl
// thread about 20 MB (a loader thread and transform caches of its own). Where the bundle cannot be
// written (a read-only node_modules), the thread registers tsx itself (thread-boot.mjs).
import { Worker } from 'node:worker_threads';
import { bundle } from './bundle.mjs';

const bundles = new Map<string, Promise<URL | null>>();

function bundled(entry: URL): Promise<URL | null> {
  let known = bundles.get(entry.href);
  if (!known) {
    known = bundle(entry).catch((error: Error) => {
      console.warn(
        `[threads] ${entry.pathname} runs through tsx: it could not be bundled (${error.message})`,
      );
      return null;
    });
    bundles.set(entry.href, known);
  }
  return known;
}

export async function startThread(
  entry: URL,
  input: unknown,
  resourceLimits: { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb?: number },
): Promise<Worker> {
  // BUNDLE_THREADS=0 runs the thread from the TypeScript sources through tsx, so that a CPU profile of it
  // names each module (the benchmark's stage profile).
  const script =
    (process.env.BUNDLE_THREADS === '0' ? null : await bundled(entry)) ??
    new URL('./thread-boot.mjs', import.meta.url);
  // The worker process runs with --expose-gc (scripts/node-args.ts): what its main thread no longer uses
  // goes before the thread's heap grows beside it.
  (globalThis as { gc?: () => void }).gc?.();
  // Reflect.construct rather than `new Worker(…)`: Next's bundler (the web server imports this module
  // through the run definitions, though it never starts a thread) reads `new Worker(x)` with a computed x
  // as a reference to any file of the project and failed the build on each one it could not load.
  return Reflect.construct(Worker, [
    script,
    {
      workerData: { entry: entry.href, input },
      // Server-only modules load as in the worker process (scripts/node-args.ts); a CPU profiler's flags
      // carry over (BENCH_CPU_PROF in scripts/bench.ts).
      execArgv: [
        '--conditions=react-server',
        ...process.execArgv.filter((arg) => arg.startsWith('--cpu-prof') || arg === '--enable-source-maps'),
      ],
      resourceLimits,
    },
  ]) as Worker;
}
