// Runs the crawl export's parsing and encoding on a worker thread (lib/ingest/crawl-thread.ts) and hands
// the encoded chunks to the caller, who writes them to COPY. Flow control keeps at most a few chunks in
// memory; aborting the signal stops the thread.
import { Worker } from 'node:worker_threads';
import type { CrawlReport } from '@/lib/crawl/types';
import type { LoadFacts } from './copy-lines';
import {
  type CrawlChunk,
  type CrawlThreadInput,
  type FromCrawlThread,
  reviveError,
} from './crawl-thread-protocol';

export type { CrawlChunk, CrawlThreadInput } from './crawl-thread-protocol';

/** The thread's outcome; a failure comes with what the report had gathered until then. */
export type CrawlImportResult =
  | { ok: true; report: CrawlReport; facts: LoadFacts }
  | { ok: false; error: Error; report: CrawlReport | null };

export async function* encodeCrawlInThread(
  input: CrawlThreadInput,
  signal: AbortSignal,
): AsyncGenerator<CrawlChunk, CrawlImportResult> {
  const worker = new Worker(new URL('./thread-boot.mjs', import.meta.url), {
    workerData: { entry: new URL('./crawl-thread.ts', import.meta.url).href, input },
    // Only a CPU profiler's flags (see BENCH_CPU_PROF in scripts/bench.ts) and the export conditions
    // (react-server: see scripts/node-args.ts) carry over.
    execArgv: process.execArgv.filter(
      (arg) => arg.startsWith('--cpu-prof') || arg.startsWith('--conditions='),
    ),
    // What the thread keeps is small (reader state, at most 100 rejections; the key tally's table is
    // outside the heap): a modest heap makes it collect its garbage early instead of growing the worker's
    // memory by a few hundred MB on a large export.
    resourceLimits: { maxOldGenerationSizeMb: 96 },
  });
  const inbox: FromCrawlThread[] = [];
  let wake: (() => void) | null = null;
  const deliver = (message: FromCrawlThread) => {
    inbox.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', deliver);
  worker.on('error', (error) =>
    deliver({
      type: 'failed',
      error: { kind: 'other', message: error.message, ...(error.stack ? { stack: error.stack } : {}) },
      report: null,
    }),
  );
  worker.on('exit', (code) =>
    deliver({
      type: 'failed',
      error: { kind: 'other', message: `the crawl thread stopped (exit code ${code})` },
      report: null,
    }),
  );
  const stop = () => void worker.terminate();
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      if (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = inbox.shift() as FromCrawlThread;
      if (message.type === 'chunk') {
        yield message;
        worker.postMessage('ack');
      } else if (message.type === 'done') {
        return { ok: true, report: message.report, facts: message.facts };
      } else {
        return { ok: false, error: reviveError(message.error), report: message.report };
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
