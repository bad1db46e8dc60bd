// The crawler's page fetcher alone, against the crawl test site's /gen/ section served by a child process (so
// the two share the machine's cores as a crawler and a site would): pages/s at 16 requests in flight and this
// process's CPU ms per page. For comparison, the same pages through bare node:http with and without a
// keep-alive agent, read by the same page reader: what lib/net's fresh socket per request costs.
//   node --import tsx scripts/bench/fetch-page.ts [pages=20000] [concurrency=16]
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import { createPageFetcher } from '@/lib/crawler/fetch-page';
import { createPageReader } from '@/lib/crawler/page-reader';
import { startCrawlSite } from '@/lib/test-support/crawl-site';

const [first, second] = process.argv.slice(2);

if (first === 'serve') {
  const site = await startCrawlSite({ generatedPages: Number(second), logRequests: false });
  process.stdout.write(`${site.origin}\n`);
} else {
  const pages = Number(first ?? 20_000);
  const concurrency = Number(second ?? 16);
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, 'serve', String(pages)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((resolve) =>
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim())),
  );
  const urls = Array.from({ length: pages }, (_, n) => `${origin}/gen/${n}`);

  const fetcher = createPageFetcher({ allowPrivateNetwork: true });
  const signal = new AbortController().signal;
  // Every request in flight listens to the crawl's one signal: many listeners is the design, not a leak.
  setMaxListeners(concurrency * 4, signal);
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const bare = (agent: http.Agent | false) => (url: string) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          const reader = createPageReader(url);
          res.setEncoding('utf8');
          res.on('data', (text: string) => reader.write(text));
          res.on('end', () => resolve(reader.end().links.length));
        })
        .on('error', reject);
    });
  const only = process.env.BENCH_ONLY;
  const all: [string, (url: string) => Promise<number>][] = [
    [
      'createPageFetcher (lib/net, fresh socket each)',
      async (url) => (await fetcher(url, signal)).links.length,
    ],
    ['bare node:http, agent: false', bare(false)],
    ['bare node:http, keep-alive agent', bare(keepAlive)],
  ];
  const runs = only ? all.slice(Number(only), Number(only) + 1) : all;
  for (const [name, fetchOne] of runs) {
    // A warm-up pass, then the measured one.
    await measure(urls.slice(0, 2_000), concurrency, fetchOne);
    const { ms, cpuMs, links } = await measure(urls, concurrency, fetchOne);
    console.log(
      `${name}: ${Math.round((pages / ms) * 1000)} pages/s, ${(cpuMs / pages).toFixed(3)} ms CPU/page ` +
        `(${pages} pages, ${links} links, concurrency ${concurrency})`,
    );
  }
  keepAlive.destroy();
  child.kill();
}

async function measure(urls: string[], concurrency: number, fetchOne: (url: string) => Promise<number>) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let next = 0;
  let links = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) {
        const found = await fetchOne(urls[next++] as string);
        links += found;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, links };
}
