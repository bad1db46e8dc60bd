// The crawl engine's own cost, without sockets or a database: a synthetic site in memory (links prebuilt, so
// the fetcher costs next to nothing), the memory store, one host at concurrency 16. What it measures is the
// ceiling the engine puts on a crawl: frontier, scope, trap keys, lanes, flushes. Run alone with
// `node --import tsx scripts/bench/crawl-engine.ts` (BENCH_ENGINE_PAGES, default 20000).
import { runCrawl } from '@/lib/crawler/engine';
import { MemoryCrawlStore } from '@/lib/crawler/memory-store';
import type { PageFetch, PageFetcher } from '@/lib/crawler/types';

export interface EngineBench {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  rssMb: number;
  /** The most live heap seen after a full GC at every 50th flush (run node with --expose-gc), else null. */
  liveHeapMb: number | null;
}

const ORIGIN = 'https://bench.test';
const href = (i: number) => (i === 0 ? `${ORIGIN}/` : `${ORIGIN}/section-${i % 40}/page-${i}`);

/** Page `n` of a site of `size` pages: it links to its 3 children, its parent, 10 navigation pages, 4 pages
 * across sections and 2 other hosts (about 20 links, as a typical template has). Built when asked, so the
 * process holds no site: its RSS is the engine's and the store's. */
function pageOf(n: number, size: number): PageFetch {
  const links: string[] = [];
  for (let i = 1; i <= 10; i++) links.push(href(i));
  links.push(href(Math.floor(n / 3)));
  for (let c = n * 3 + 1; c <= n * 3 + 3 && c < size; c++) links.push(href(c));
  for (let k = 1; k <= 4; k++) links.push(href((n * 7919 + k * 104_729) % size));
  links.push('https://cdn.other.test/asset.js', `https://social.other.test/share?u=${n}`);
  return {
    url: href(n),
    status: 200,
    redirectUrl: null,
    contentType: 'text/html; charset=utf-8',
    canonical: href(n),
    canonicalSource: 'link',
    noindex: false,
    noindexSources: [],
    nofollow: false,
    blockedByRobots: false,
    method: 'GET',
    responseMs: 0,
    fetchedAt: new Date(),
    links,
    retryAfterMs: null,
    truncated: false,
    error: null,
  };
}

export async function measureCrawlEngine(size = 20_000, concurrency = 16): Promise<EngineBench> {
  const fetcher: PageFetcher = (url) => {
    const n = url === `${ORIGIN}/` ? 0 : Number(url.slice(url.lastIndexOf('-') + 1));
    // Each answer comes back on a later turn of the event loop, as a socket's would.
    return new Promise((resolve) => setImmediate(() => resolve(pageOf(n, size))));
  };
  const store = new MemoryCrawlStore({ keepPages: false });
  const gc = (globalThis as { gc?: () => void }).gc;
  let flushes = 0;
  let liveHeap: number | null = null;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const progress = await runCrawl({
    settings: {
      mode: 'site',
      startUrl: 'https://bench.test/',
      maxPages: size * 2,
      maxDepth: 100,
      concurrencyPerHost: concurrency,
      render: false,
    },
    // Every page here shares one path pattern (digits as *) and is found on a page of it: the default budget
    // of 2,000 would cut the rest as a trap.
    trap: { patternBudget: size * 2 },
    scopeHosts: ['bench.test'],
    profile: 'exact',
    fetcher,
    robots: async () => ({ refusal: () => null, crawlDelayMs: null }),
    store,
    onFlush: () => {
      if (!gc || ++flushes % 50 !== 0) return;
      gc();
      liveHeap = Math.max(liveHeap ?? 0, process.memoryUsage().heapUsed);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (progress.fetched !== size)
    throw new Error(`the bench crawl fetched ${progress.fetched} of ${size} pages`);
  return {
    pages: progress.fetched,
    seconds,
    pagesPerSecond: progress.fetched / seconds,
    cpuMsPerPage: (used.user + used.system) / 1000 / progress.fetched,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    liveHeapMb: liveHeap === null ? null : liveHeap / 2 ** 20,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const size = Number(process.env.BENCH_ENGINE_PAGES ?? 20_000);
  const result = await measureCrawlEngine(size);
  console.log(
    `[bench] crawl engine: ${result.pages} pages in ${result.seconds.toFixed(2)} s = ${Math.round(result.pagesPerSecond)} pages/s, ${result.cpuMsPerPage.toFixed(3)} ms CPU a page, RSS ${Math.round(result.rssMb)} MB${result.liveHeapMb === null ? '' : `, live heap at most ${Math.round(result.liveHeapMb)} MB`}`,
  );
}
