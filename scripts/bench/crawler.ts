// The built-in crawler end to end, beside crawlee's CheerioCrawler: the crawl test site's /gen/ tree (a
// crawl from /gen/0 sees exactly its N pages, 2 KiB of text and up to 10 links each) served from 127.0.0.1
// with no latency by its own child process (scripts/bench/fetch-page.ts serve), so neither crawler shares
// its process with the site. Ours runs in a child process of its own as the audit's crawl_site step runs
// it: crawlSite (plain fetcher, robots.txt, engine) at concurrency 16 into the Postgres frontier store of a
// real audits row, then loadCrawledPages. That child's peak RSS (VmHWM) is the crawl's own; its RSS at
// 25/50/75/100 % of the pages shows whether memory follows the page count. At the largest size the whole
// worker then runs an audit that crawls the same site (crawl-worker.ts): its RSS. crawlee runs from
// scripts/bench/crawlee (installed there on demand, never a dependency of the app) on the same server.
// `node --conditions=react-server --import tsx scripts/bench/crawler.ts crawl <auditId> <startUrl> <pages>
// <concurrency>` is the child (DATABASE_URL set to the worker's role); bench.ts runs the rest.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadCrawledPages } from '@/lib/crawler/mutations';
import { crawlInThread } from '@/lib/crawler/thread';
import { closeDb } from '@/lib/db/client';
import { SERVER_NODE_ARGS } from '../node-args';
import { crawlInWorker, type WorkerCrawl } from './crawl-worker';
import { cpuSecondsOf, rssMb } from './proc';

const root = path.resolve(import.meta.dirname, '..', '..');
const crawleeDir = path.join(import.meta.dirname, 'crawlee');
const CONCURRENCY = 16;
/** The child's statements are cancelled past this (PGOPTIONS): a load whose plan goes quadratic (nested
 * loops over the audit's frontier, when the tables' statistics have not seen its rows) would otherwise hold
 * the bench for an hour at 100,000 pages; it is reported as failed instead. */
const LOAD_TIMEOUT_S = 120;

export interface RssSample {
  /** Share of the pages fetched when sampled. */
  percent: number;
  fetched: number;
  rssMb: number;
  heapMb: number;
  /** The heap after a full GC at that point, when the child runs with --expose-gc (BENCH_CRAWL_NODE_ARGS);
   * else null. Forcing it changes the RSS samples after it, so it is off by default. */
  liveHeapMb: number | null;
}

/** What the crawl child prints (one JSON line). */
export interface BuiltInCrawl {
  pages: number;
  requests: number;
  seconds: number;
  pagesPerSecond: number;
  /** The crawling process's own CPU (user + system) over the crawl, per page: Postgres's is not in it. */
  cpuMsPerPage: number;
  /** Before the crawl (modules loaded, nothing crawled), during it, and the peak (VmHWM) over the whole
   * process life, the final load included. */
  startRssMb: number;
  rssSamples: RssSample[];
  peakRssMb: number;
  /** loadCrawledPages: frontier and answers into the audit's crawl_pages partition; null rows and the
   * error when it failed or ran past LOAD_TIMEOUT_S. */
  loadSeconds: number;
  loadedRows: number | null;
  loadError: string | null;
}

export interface CrawleeCrawl {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  peakRssMb: number;
}

export interface CrawlerSize {
  pages: number;
  concurrency: number;
  /** Load averages (1, 5, 15 min) when this size started. */
  loadAverage: number[];
  builtIn: BuiltInCrawl & { serverCpuMsPerPage: number };
  crawlee: (CrawleeCrawl & { serverCpuMsPerPage: number }) | string;
  /** The whole worker running an audit that crawls the same site (the largest size only). */
  worker: WorkerCrawl | null;
}

/** The child: one crawl of `pages` pages into the audit's Postgres store, then the load; prints its figures. */
async function crawlChild(auditId: string, startUrl: string, pages: number, concurrency: number) {
  const gc = (globalThis as { gc?: () => void }).gc;
  const sample = (percent: number, fetched: number): RssSample => {
    const taken = {
      percent,
      fetched,
      rssMb: rssMb('self', 'VmRSS'),
      heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    };
    gc?.();
    return { ...taken, liveHeapMb: gc ? Math.round(process.memoryUsage().heapUsed / 2 ** 20) : null };
  };
  const startRssMb = rssMb('self', 'VmRSS');
  const samples: RssSample[] = [];
  const marks = [25, 50, 75];
  const cpu = process.cpuUsage();
  const started = performance.now();
  // As the audit's crawl_site step runs it: on its thread with a capped heap (lib/crawler/thread.ts).
  const totals = await crawlInThread({
    auditId,
    settings: {
      mode: 'site',
      startUrl,
      maxPages: pages,
      maxDepth: 100,
      concurrencyPerHost: concurrency,
      render: false,
    },
    profile: 'exact',
    // The /gen/ tree is one path pattern (/gen/*) whose pages are all found on pages of it, the shape the
    // pattern budget (a fifth of the page limit by default) cuts as a trap: a real site's pages sit under
    // several patterns.
    trap: { patternBudget: pages * 2 },
    signal: new AbortController().signal,
    onFlush: (progress) => {
      while (marks.length > 0 && progress.fetched >= ((marks[0] as number) / 100) * pages)
        samples.push(sample(marks.shift() as number, progress.fetched));
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  samples.push(sample(100, totals.fetched));
  if (totals.fetched !== pages || totals.stopped)
    throw new Error(
      `the crawl fetched ${totals.fetched} of ${pages} pages (${totals.stopped?.message ?? ''})`,
    );
  const loadStarted = performance.now();
  const load = await loadCrawledPages(auditId).then(
    (facts) => ({ rows: facts.rows, error: null }),
    (error: Error) => ({ rows: null, error: error.message }),
  );
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  await closeDb();
  const result: BuiltInCrawl = {
    pages: totals.fetched,
    requests: totals.requests,
    seconds: Number(seconds.toFixed(2)),
    pagesPerSecond: Math.round(totals.fetched / seconds),
    cpuMsPerPage: Number(((used.user + used.system) / 1000 / totals.fetched).toFixed(3)),
    startRssMb,
    rssSamples: samples,
    peakRssMb: rssMb('self', 'VmHWM'),
    loadSeconds: Number(loadSeconds.toFixed(2)),
    loadedRows: load.rows,
    loadError: load.error,
  };
  console.log(JSON.stringify(result));
}

/** Runs a child to its end; its last stdout line is its JSON result. */
async function runJson<T>(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  // 'close', not 'exit': its stdout may still hold the last line when it exits.
  const [code] = await once(child, 'close');
  const last = stdout.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{')) throw new Error(`${name} exited with code ${code}`);
  return JSON.parse(last) as T;
}

/** The crawl test site's /gen/ tree of `pages` pages in its own process; resolves with its origin. */
async function startSite(pages: number): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_ARGS, path.join(import.meta.dirname, 'fetch-page.ts'), 'serve', String(pages)],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the crawl site exited (code ${code})`)));
  });
  // Its first requests compile its code: 2,000 pages before either crawler is timed.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < Math.min(pages, 2_000)) {
        const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
          http.get(`${origin}/gen/${next++}`, { agent }, resolve).on('error', reject),
        );
        res.resume();
        await once(res, 'end');
      }
    }),
  );
  agent.destroy();
  return { child, origin };
}

/** crawlee in scripts/bench/crawlee, installed from its lock file when missing; false when that fails. */
function ensureCrawlee(log: (message: string) => void): boolean {
  if (existsSync(path.join(crawleeDir, 'node_modules', 'crawlee', 'package.json'))) return true;
  log('installing crawlee into scripts/bench/crawlee (npm ci)…');
  const install = spawnSync('npm', ['ci', '--prefix', crawleeDir, '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  return install.status === 0 && existsSync(path.join(crawleeDir, 'node_modules', 'crawlee', 'package.json'));
}

/**
 * For each size: the site started, our crawl (in a child, into a fresh audit's Postgres store, the audit
 * deleted after), then crawlee's on the same server when `crawleeUpTo` allows; the site's CPU time per
 * page is reported beside each.
 */
export async function measureCrawler(options: {
  workerUrl: string;
  sizes: number[];
  crawleeUpTo: number;
  log: (message: string) => void;
}): Promise<CrawlerSize[]> {
  const { insertAudit, deleteAudit } = await import('@/lib/audits/mutations');
  const { log } = options;
  const wanted = options.sizes.some((pages) => pages <= options.crawleeUpTo);
  const crawlee = wanted && ensureCrawlee(log);
  if (wanted && !crawlee) log('crawlee could not be installed: its column is skipped');
  const results: CrawlerSize[] = [];
  for (const pages of options.sizes) {
    const loadAverage = os.loadavg().map((n) => Number(n.toFixed(2)));
    const site = await startSite(pages);
    const sitePid = site.child.pid as number;
    const startUrl = `${site.origin}/gen/0`;
    try {
      const auditId = randomUUID();
      await insertAudit(auditId, 'benchmark: built-in crawler', { normalization: 'exact' }, []);
      log(`built-in crawler: ${pages.toLocaleString('en-US')} pages at concurrency ${CONCURRENCY}…`);
      let serverCpu = cpuSecondsOf(sitePid);
      let builtIn: BuiltInCrawl;
      try {
        builtIn = await runJson<BuiltInCrawl>(
          'the built-in crawl',
          process.execPath,
          [
            // BENCH_CPU_PROF=<dir>: a V8 CPU profile of the crawling process.
            ...(process.env.BENCH_CPU_PROF
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
              : []),
            // BENCH_CRAWL_NODE_ARGS: more flags for it (--expose-gc, --max-old-space-size=…), space separated.
            ...(process.env.BENCH_CRAWL_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
            ...SERVER_NODE_ARGS,
            import.meta.filename,
            'crawl',
            auditId,
            startUrl,
            String(pages),
            String(CONCURRENCY),
          ],
          {
            cwd: root,
            env: {
              ...process.env,
              DATABASE_URL: options.workerUrl,
              // The site is on loopback: the crawl's thread reads lib/net's rules from the environment.
              ALLOW_PRIVATE_NETWORK: 'true',
              PGOPTIONS: `-c statement_timeout=${LOAD_TIMEOUT_S}s`,
            },
          },
        );
      } finally {
        await deleteAudit(auditId);
      }
      const builtInServerCpu = cpuSecondsOf(sitePid) - serverCpu;
      let crawleeResult: CrawlerSize['crawlee'] = 'not run: crawlee could not be installed';
      if (pages > options.crawleeUpTo)
        crawleeResult = `not run at this size (BENCH_CRAWLEE_UP_TO=${options.crawleeUpTo})`;
      else if (crawlee) {
        log(`crawlee CheerioCrawler: ${pages.toLocaleString('en-US')} pages at concurrency ${CONCURRENCY}…`);
        serverCpu = cpuSecondsOf(sitePid);
        const peer = await runJson<CrawleeCrawl>(
          'the crawlee crawl',
          process.execPath,
          [path.join(crawleeDir, 'crawl.mjs'), startUrl, String(CONCURRENCY), String(pages)],
          { cwd: crawleeDir },
        );
        crawleeResult = {
          ...peer,
          serverCpuMsPerPage: Number(((1000 * (cpuSecondsOf(sitePid) - serverCpu)) / peer.pages).toFixed(3)),
        };
      }
      const worker =
        pages === Math.max(...options.sizes)
          ? await crawlInWorker({ workerUrl: options.workerUrl, origin: site.origin, pages, log })
          : null;
      results.push({
        pages,
        worker,
        concurrency: CONCURRENCY,
        loadAverage,
        builtIn: {
          ...builtIn,
          serverCpuMsPerPage: Number(((1000 * builtInServerCpu) / builtIn.pages).toFixed(3)),
        },
        crawlee: crawleeResult,
      });
    } finally {
      site.child.kill();
      await once(site.child, 'exit');
    }
  }
  return results;
}

export function logCrawler(sizes: CrawlerSize[], log: (message: string) => void): void {
  for (const size of sizes) {
    const ours = size.builtIn;
    const target = size.pages <= 20_000 ? ' (target ≥ 1,000 pages/s)' : ' (target peak < 300 MB)';
    log(
      `built-in crawler, ${size.pages.toLocaleString('en-US')} pages, concurrency ${size.concurrency}: ${ours.pagesPerSecond.toLocaleString('en-US')} pages/s in ${ours.seconds} s${target}, ${ours.cpuMsPerPage} ms CPU/page (site ${ours.serverCpuMsPerPage}), peak RSS ${ours.peakRssMb} MB; load into crawl_pages ${ours.loadSeconds} s${ours.loadError ? ` FAILED: ${ours.loadError}` : ''}`,
    );
    log(
      `  RSS ${ours.startRssMb} MB before, then ${ours.rssSamples.map((s) => `${s.rssMb} MB at ${s.percent} %${s.liveHeapMb === null ? '' : ` (live heap ${s.liveHeapMb} MB)`}`).join(', ')} (load average ${size.loadAverage.join(', ')})`,
    );
    const w = size.worker;
    if (w)
      log(
        `the whole worker (scripts/worker.mjs) running an audit that crawls ${w.pages.toLocaleString('en-US')} pages at ${w.concurrencyPerHost} per host: ${w.seconds} s queue to findings; RSS ${w.idleRssMb} MB idle, median ${w.medianRssMb} MB, p99 ${w.p99RssMb} MB, peak ${w.peakRssMb} MB (target < 300 MB) over ${w.samples} samples, the highest ${w.peakSample.seconds} s in with ${w.peakSample.fetched.toLocaleString('en-US')} pages fetched`,
      );
    const peer = size.crawlee;
    if (typeof peer === 'string')
      log(`crawlee CheerioCrawler, ${size.pages.toLocaleString('en-US')} pages: ${peer}`);
    else
      log(
        `crawlee CheerioCrawler, ${peer.pages.toLocaleString('en-US')} pages: ${peer.pagesPerSecond.toLocaleString('en-US')} pages/s in ${peer.seconds} s, ${peer.cpuMsPerPage} ms CPU/page (site ${peer.serverCpuMsPerPage}), peak RSS ${peer.peakRssMb} MB`,
      );
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'crawl') {
  const [auditId, startUrl, pages, concurrency] = process.argv.slice(3);
  await crawlChild(auditId as string, startUrl as string, Number(pages), Number(concurrency));
}
