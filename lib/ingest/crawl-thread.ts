// The crawl export's CPU work (lib/ingest/crawl-encode.ts) on a thread of its own, so it runs beside the
// sitemap tree's on the main thread (both are CPU-bound in JavaScript). The main thread only writes the
// encoded chunks to Postgres (lib/ingest/crawl-import.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { newCrawlReport } from '@/lib/crawl/read';
import { encodeCrawl } from './crawl-encode';
import {
  type CrawlThreadInput,
  type FromCrawlThread,
  MAX_CHUNKS_IN_FLIGHT,
  serializeError,
} from './crawl-thread-protocol';

const port = parentPort;
if (!port) throw new Error('crawl-thread.ts runs as a worker thread');
const input = (workerData as { input: CrawlThreadInput }).input;
const send = (message: FromCrawlThread) => port.postMessage(message);

let credits = MAX_CHUNKS_IN_FLIGHT;
let wake: (() => void) | null = null;
port.on('message', (message) => {
  if (message !== 'ack') return;
  credits++;
  wake?.();
  wake = null;
});

const report = newCrawlReport();

async function run(): Promise<void> {
  const chunks = encodeCrawl(input, report);
  let next = await chunks.next();
  while (!next.done) {
    if (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    send(next.value);
    next = await chunks.next();
  }
  send({ type: 'done', report, facts: next.value });
}

run().catch((error) => send({ type: 'failed', error: serializeError(error), report }));
