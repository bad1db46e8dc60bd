// Spot-check measurement: 2,000 prune rows over 50 local hosts, each answering after 20 ms,
// checked live through the real path (API service → job queue → worker → polite fetcher). Reports
// checks/s, the concurrency the servers saw and the worker's memory: with 20 requests at once and 20 ms
// per answer the fetcher cannot exceed ~1,000 requests/s, so that limit, not the code, should bound it.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { getSpotCheck } from '@/lib/spot-check/data';
import { startSpotCheck } from '@/lib/spot-check/service';

export const SPOT_HOSTS = 50;
export const SPOT_ROWS = 2_000;
const LATENCY_MS = 20;

interface LiveSites {
  origins: string[];
  /** Requests answered, the most in flight at once overall and on one host. */
  stats: () => { requests: number; maxInFlight: number; maxPerHost: number };
  close: () => Promise<void>;
}

/** 50 servers on 127.0.0.1 (an origin each). /p/N: N % 5 in {0, 1} → 404, 2 → 301 to a 200 page,
 * otherwise a 200 indexable self-canonical page; everything else (the soft-404 probe) 404. */
async function startLiveSites(): Promise<LiveSites> {
  let inFlight = 0;
  let maxInFlight = 0;
  let maxPerHost = 0;
  let requests = 0;
  const servers = await Promise.all(
    Array.from({ length: SPOT_HOSTS }, async () => {
      let hostInFlight = 0;
      const server = http.createServer((req, res) => {
        requests++;
        inFlight++;
        hostInFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        maxPerHost = Math.max(maxPerHost, hostInFlight);
        res.on('close', () => {
          inFlight--;
          hostInFlight--;
        });
        setTimeout(() => answer(req, res), LATENCY_MS);
      });
      server.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      return server;
    }),
  );
  return {
    origins: servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    stats: () => ({ requests, maxInFlight, maxPerHost }),
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  if (url === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    return;
  }
  const page = /^\/p\/(\d+)(\/moved)?$/.exec(url);
  if (!page) {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><p>No such page</p>');
    return;
  }
  const n = Number(page[1]);
  if (!page[2] && n % 5 < 2) {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><p>No such page</p>');
    return;
  }
  if (!page[2] && n % 5 === 2) {
    res.writeHead(301, { location: `${url}/moved` }).end();
    return;
  }
  const self = `http://${req.headers.host}${url}`;
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html><head><title>Page ${n}</title><link rel="canonical" href="${self}"></head>` +
        `<body><h1>Page ${n}</h1><p>${'Words of a real page. '.repeat(40)}${n}</p></body></html>`,
    );
}

type AuditSource =
  | { role: 'sitemap' | 'crawl'; kind: 'upload'; fileName: string; storedPath: string }
  | { role: 'sitemap'; kind: 'url'; url: string };

/** Audits 2,000 declared URLs the crawl saw as 404 (all on the prune list), then times a spot-check of
 * the whole list through the worker. `runAudit` is the benchmark's own (queued as the API does). */
export async function measureSpotCheck(
  dir: string,
  runAudit: (sources: AuditSource[]) => Promise<{ id: string; status: string }>,
  workerRssMb: () => { current: number; peak: number },
  workerCpuSeconds: () => number,
  log: (message: string) => void,
) {
  const sites = await startLiveSites();
  try {
    const urls = Array.from({ length: SPOT_ROWS }, (_, i) => `${sites.origins[i % SPOT_HOSTS]}/p/${i}`);
    const sitemap = path.join(dir, 'spot-check-sitemap.txt');
    const crawl = path.join(dir, 'spot-check-crawl.jsonl');
    writeFileSync(sitemap, `${urls.join('\n')}\n`);
    writeFileSync(
      crawl,
      urls.map((url) => `${JSON.stringify({ url, status: 404, indexable: false })}\n`).join(''),
    );
    const audit = await runAudit([
      { role: 'sitemap', kind: 'upload', fileName: 'spot-check-sitemap.txt', storedPath: sitemap },
      { role: 'crawl', kind: 'upload', fileName: 'spot-check-crawl.jsonl', storedPath: crawl },
    ]);
    if (audit.status !== 'succeeded') throw new Error(`the spot-check audit ended ${audit.status}`);
    const before = workerRssMb();
    const cpuBefore = workerCpuSeconds();
    log(`spot-check: ${SPOT_ROWS} rows over ${SPOT_HOSTS} hosts, ${LATENCY_MS} ms per answer…`);
    const started = performance.now();
    const runId = await startSpotCheck(audit.id, { filter: { list: 'prune' } }, 'benchmark');
    let checkingAt: number | null = null;
    let run = await getSpotCheck(audit.id, runId);
    while (run && !['succeeded', 'partial', 'failed', 'cancelled'].includes(run.status)) {
      await new Promise((r) => setTimeout(r, 50));
      run = await getSpotCheck(audit.id, runId);
      if (checkingAt === null && run?.phase === 'checking') checkingAt = performance.now();
    }
    const done = performance.now();
    if (!run) throw new Error('the spot-check run disappeared');
    if (run.status !== 'succeeded')
      throw new Error(`the spot-check ended ${run.status}: ${run.errorMessage}`);
    const seconds = (done - started) / 1000;
    const checkSeconds = (done - (checkingAt ?? started)) / 1000;
    const server = sites.stats();
    const after = workerRssMb();
    const cpuSeconds = workerCpuSeconds() - cpuBefore;
    return {
      rows: SPOT_ROWS,
      hosts: SPOT_HOSTS,
      latencyMs: LATENCY_MS,
      seconds: Number(seconds.toFixed(2)),
      checkingSeconds: Number(checkSeconds.toFixed(2)),
      checksPerSecond: Math.round(SPOT_ROWS / seconds),
      requests: server.requests,
      requestsPerSecond: Math.round(server.requests / checkSeconds),
      // What 20 at once with 20 ms answers allows at most (the requests include redirects, robots.txt
      // and the soft-404 probes).
      concurrencyBoundPerSecond: Math.round(20 * (1000 / LATENCY_MS)),
      maxInFlight: server.maxInFlight,
      maxPerHost: server.maxPerHost,
      // The worker's own CPU time per check (both its threads): if it approached 1000 / checks per second
      // the code would be the bound; it stays well under the time the answers take.
      workerCpuMsPerCheck: Number(((1000 * cpuSeconds) / SPOT_ROWS).toFixed(2)),
      workerCpuShare: Number((cpuSeconds / seconds).toFixed(2)),
      byVerdict: run.summary?.byVerdict ?? null,
      workerRssMb: { before: before.current, after: after.current, peak: after.peak },
    };
  } finally {
    await sites.close();
  }
}
