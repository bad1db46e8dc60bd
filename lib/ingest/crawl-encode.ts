// The crawl export's CPU work — decompress, parse, key, encode COPY lines — as one generator, run on the
// crawl thread for large exports (lib/ingest/crawl-thread.ts) and on the calling thread for small uploads
// (lib/ingest/crawl-import.ts), so both read a file exactly alike.
import { createHash, type Hash } from 'node:crypto';
import { newCrawlReport, readCrawlBatches } from '@/lib/crawl/read';
import { CrawlImportError, type CrawlReport } from '@/lib/crawl/types';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import { openStored } from '@/lib/storage/store';
import { encodeCrawlRows, FactsTally, type LoadFacts } from './copy-lines';
import type { CrawlChunk, CrawlThreadInput } from './crawl-thread-protocol';

async function openBody(input: CrawlThreadInput): Promise<AsyncIterable<Uint8Array>> {
  const { url, storedPath } = input.source;
  // On the crawl thread too: the store is built there from the environment the thread inherits.
  if (storedPath) return openStored(storedPath);
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

/** The bytes as they pass, hashed on the way (the reader sees the same chunks). */
async function* hashed(body: AsyncIterable<Uint8Array>, hash: Hash): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    hash.update(chunk);
    yield chunk;
  }
}

/** Yields the encoded chunks with the running counts; returns the load's facts. `report` fills as it goes
 * (the caller keeps it, so a failure still tells what was read). */
export async function* encodeCrawl(
  input: CrawlThreadInput,
  report: CrawlReport = newCrawlReport(),
): AsyncGenerator<CrawlChunk, LoadFacts> {
  const tally = new FactsTally();
  const hash = createHash('sha256');
  for await (const batch of readCrawlBatches(hashed(await openBody(input), hash), report, input.read)) {
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
    yield { type: 'chunk', text, written, rows: report.rows, rejected: report.rejected };
  }
  report.rejections.sort((a, b) => a.line - b.line);
  report.sha256 = hash.digest('hex');
  if (report.rows === 0) {
    throw new CrawlImportError('no_valid_rows', `none of the ${report.rejected} rows has a valid URL`);
  }
  return tally.facts();
}
