// The crawl on a thread of its own (started by thread.ts): the engine, its fetcher and its Postgres store
// run here, under a heap limit that makes V8 collect early. A crawl keeps little alive (its frontier and
// counters), but with the worker's default heap its garbage grew the process by a few hundred MB.
import 'server-only';
import { parentPort, workerData } from 'node:worker_threads';
import { closeCrawlConnections, declaredHosts, declaredUrlBatches, postgresCrawlStore } from './mutations';
import { crawlSite } from './run-crawl';
import { ABORT, type CrawlThreadInput, type FromCrawlThread } from './thread-protocol';

const port = parentPort;
if (!port) throw new Error('crawl-thread.ts runs as a worker thread');
const input = (workerData as { input: CrawlThreadInput }).input;
const send = (message: FromCrawlThread) => port.postMessage(message);
const controller = new AbortController();
port.on('message', (message) => {
  if (message === ABORT) controller.abort(new Error('the crawl was stopped'));
});

async function run(): Promise<void> {
  const { auditId, settings, profile, trap } = input;
  const list = settings.mode === 'list';
  const progress = await crawlSite({
    settings,
    seeds: list ? declaredUrlBatches(auditId) : [],
    scopeHosts: list ? await declaredHosts(auditId) : [],
    profile,
    trap,
    store: postgresCrawlStore(auditId, profile),
    signal: controller.signal,
    onFlush: (p) => send({ type: 'flush', progress: p }),
  });
  send({ type: 'done', progress });
}

run()
  .catch((error: unknown) =>
    send({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
      aborted: controller.signal.aborted,
    }),
  )
  .finally(() => {
    port.close();
    void closeCrawlConnections().catch(() => {});
  });
