// Runs an audit's crawl on a worker thread (crawl-thread.ts) with a capped heap, and relays its flushes.
// The worker process keeps its memory for everything else it runs; the crawl's stays bounded.
import { startThread } from '@/lib/core/threads';
import { ABORT, type CrawlThreadInput, type FromCrawlThread } from './thread-protocol';
import type { CrawlProgress } from './types';

/** The crawl thread's old-generation limit: what a crawl keeps alive grows with its pages (about 0.4 KB
 * each: keys, depths, counters), so the cap does too; the rest is room to collect garbage early. */
export function crawlHeapMb(maxPages: number): number {
  return Math.max(96, 64 + Math.ceil((maxPages * 0.4) / 1024));
}

export interface CrawlInThread extends CrawlThreadInput {
  signal: AbortSignal;
  onFlush?: (progress: CrawlProgress) => void;
}

export async function crawlInThread(input: CrawlInThread): Promise<CrawlProgress> {
  const { signal, onFlush, ...data } = input;
  signal.throwIfAborted();
  const heapMb = crawlHeapMb(data.settings.maxPages);
  const worker = await startThread(new URL('./crawl-thread.ts', import.meta.url), data, {
    maxOldGenerationSizeMb: heapMb,
    maxYoungGenerationSizeMb: 8,
  });
  const stop = () => worker.postMessage(ABORT);
  signal.addEventListener('abort', stop, { once: true });
  // Aborted while the thread's bundle was being built.
  if (signal.aborted) stop();
  try {
    return await new Promise<CrawlProgress>((resolve, reject) => {
      worker.on('message', (message: FromCrawlThread) => {
        if (message.type === 'flush') onFlush?.(message.progress);
        else if (message.type === 'done') resolve(message.progress);
        else if (message.aborted && signal.aborted) reject(signal.reason);
        else reject(Object.assign(new Error(message.message), message.stack ? { stack: message.stack } : {}));
      });
      worker.on('error', (error: Error & { code?: string }) =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new Error(
                `the crawl ran out of its ${heapMb} MB of memory; it resumes from its last save when tried again, or lower maxPages`,
              )
            : error,
        ),
      );
      worker.on('exit', (code) => reject(new Error(`the crawl thread stopped (exit code ${code})`)));
    });
  } finally {
    signal.removeEventListener('abort', stop);
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
