// Runs the crawl export's parsing and encoding (lib/ingest/crawl-encode.ts) and hands the encoded chunks
// to the caller, who writes them to COPY. A large export is read on a worker thread, beside the sitemap
// tree on the main thread; flow control keeps at most a few chunks in memory and aborting the signal stops
// the thread. A small upload is read right here: starting a thread (bundling its modules once per process,
// then loading them) costs more than reading a few MiB.
import { startThread } from '@/lib/core/threads';
import { newCrawlReport } from '@/lib/crawl/read';
import type { CrawlReport } from '@/lib/crawl/types';
import { intEnv } from '@/lib/db/config';
import { statStored } from '@/lib/storage/store';
import type { LoadFacts } from './copy-lines';
import { encodeCrawl } from './crawl-encode';
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

/** Uploads up to this size (CRAWL_THREAD_MIN_BYTES, default 2 MiB) are read on the calling thread. */
function threadMinBytes(): number {
  return Math.max(0, intEnv('CRAWL_THREAD_MIN_BYTES', 2 * 1024 * 1024));
}

/** Reads the export on a thread, or inline when it is a small upload; the same chunks either way. */
export async function* encodeCrawlExport(
  input: CrawlThreadInput,
  signal: AbortSignal,
): AsyncGenerator<CrawlChunk, CrawlImportResult> {
  const { storedPath } = input.source;
  const size = storedPath === null ? undefined : (await statStored(storedPath).catch(() => null))?.bytes;
  const small = size !== undefined && size <= threadMinBytes();
  return yield* small ? encodeCrawlInline(input, signal) : encodeCrawlInThread(input, signal);
}

async function* encodeCrawlInline(
  input: CrawlThreadInput,
  signal: AbortSignal,
): AsyncGenerator<CrawlChunk, CrawlImportResult> {
  const report = newCrawlReport();
  const chunks = encodeCrawl(input, report);
  try {
    let next = await chunks.next();
    while (!next.done) {
      signal.throwIfAborted();
      yield next.value;
      next = await chunks.next();
    }
    return { ok: true, report, facts: next.value };
  } catch (error) {
    if (signal.aborted) throw error;
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)), report };
  } finally {
    await chunks.return(undefined as never);
  }
}

async function* encodeCrawlInThread(
  input: CrawlThreadInput,
  signal: AbortSignal,
): AsyncGenerator<CrawlChunk, CrawlImportResult> {
  // What the thread keeps is small (reader state, at most 100 rejections; the key tally's table is
  // outside the heap): a modest heap makes it collect its garbage early instead of growing the worker's
  // memory by a few hundred MB on a large export.
  const worker = await startThread(new URL('./crawl-thread.ts', import.meta.url), input, {
    maxOldGenerationSizeMb: 96,
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
  // Aborted while the thread's bundle was being built.
  if (signal.aborted) stop();
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
