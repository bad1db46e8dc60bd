// The crawl export's CPU work — decompress, parse, key, encode COPY lines — on a thread of its own, so it
// runs beside the sitemap tree's on the main thread (both are CPU-bound in JavaScript). The main thread
// only writes the encoded chunks to Postgres (lib/ingest/crawl-import.ts).
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { newCrawlReport, readCrawlBatches } from '@/lib/crawl/read';
import { CrawlImportError } from '@/lib/crawl/types';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import { encodeCrawlRows, FactsTally } from './copy-lines';
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

async function openBody(): Promise<AsyncIterable<Uint8Array>> {
  const { url, storedPath } = input.source;
  if (storedPath) return createReadStream(storedPath, { highWaterMark: 256 * 1024 });
  if (!url) throw new Error('the crawl source has neither a file nor a URL');
  const response = await safeFetch(url, { maxBytes: input.maxBytes, timeoutMs: 15 * 60_000 });
  if (response.status >= 400) {
    response.body.destroy();
    throw new NetError('http_status', url, `${url} answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  return response.body;
}

const report = newCrawlReport();

async function run(): Promise<void> {
  const tally = new FactsTally();
  for await (const batch of readCrawlBatches(await openBody(), report, input.read)) {
    const { text, written, invalid } = encodeCrawlRows(batch, input.profile, tally);
    for (const row of invalid) {
      // The reader only checks the scheme; a URL that does not parse is a bad row like any other.
      report.rows--;
      report.rejected++;
      if (report.rejections.length < 100)
        report.rejections.push({
          line: row.line,
          reason: `url "${row.url.slice(0, 200)}" is not a valid URL`,
        });
    }
    if (written === 0) continue;
    if (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    send({ type: 'chunk', text, written, rows: report.rows, rejected: report.rejected });
  }
  report.rejections.sort((a, b) => a.line - b.line);
  if (report.rows === 0) {
    throw new CrawlImportError('no_valid_rows', `none of the ${report.rejected} rows has a valid URL`);
  }
  send({ type: 'done', report, facts: tally.facts() });
}

run().catch((error) => send({ type: 'failed', error: serializeError(error), report }));
