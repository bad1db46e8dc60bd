// The benchmark's peer: crawlee's CheerioCrawler crawling the same local site as the built-in crawler,
// reading the same signals (status, canonical, robots meta) and following same-host links.
// Usage: node crawl.mjs <startUrl> <concurrency> <maxPages>; prints one JSON line of figures.
import { readFileSync } from 'node:fs';
import { CheerioCrawler, Configuration, log } from 'crawlee';

log.setLevel(log.LEVELS.OFF);

const [startUrl, concurrency = '16', maxPages = '20000'] = process.argv.slice(2);
if (!startUrl) throw new Error('usage: node crawl.mjs <startUrl> <concurrency> <maxPages>');

function peakRssMb() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

let pages = 0;
let noindex = 0;
let canonicals = 0;
const crawler = new CheerioCrawler(
  {
    minConcurrency: Number(concurrency),
    maxConcurrency: Number(concurrency),
    maxRequestsPerCrawl: Number(maxPages),
    maxRequestRetries: 0,
    // Plain loopback HTTP: no browser-like headers or proxies, as the built-in crawler sends none.
    useSessionPool: false,
    async requestHandler({ $, enqueueLinks }) {
      pages += 1;
      if (/noindex/i.test($('meta[name="robots"]').attr('content') ?? '')) noindex += 1;
      if ($('link[rel="canonical"]').attr('href')) canonicals += 1;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 }),
);

const cpu0 = process.cpuUsage();
const t0 = performance.now();
await crawler.run([startUrl]);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    pages,
    noindex,
    canonicals,
    seconds: Number(seconds.toFixed(2)),
    pagesPerSecond: Math.round(pages / seconds),
    cpuMsPerPage: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, pages)).toFixed(3)),
    peakRssMb: peakRssMb(),
  }),
);
