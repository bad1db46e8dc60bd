// The whole worker while it crawls: scripts/worker.mjs started as `npm start` starts it (with pg-boss and
// every run kind loaded), then an audit whose only crawl is the built-in crawler's, run through the real
// job path (sitemap ingest, crawl_site on its thread, reconcile). /proc/<pid>/status is sampled every
// 60 ms from the moment the run is queued until it is final: the worker's RSS before its first job, at
// its peak (VmHWM), and the spread of the samples.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit } from '@/lib/audits/data';
import { deleteAudit, insertAudit } from '@/lib/audits/mutations';
import { isFinal } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { startRun } from '@/lib/runs/service';
import { rssMb } from './proc';
import { startWorker } from './worker-process';

const SAMPLE_MS = 60;

export interface WorkerCrawl {
  pages: number;
  concurrencyPerHost: number;
  /** Queue to final status, the sitemap's ingest and the reconcile included. */
  seconds: number;
  idleRssMb: number;
  peakRssMb: number;
  /** Percentiles of the RSS samples taken while the run went on. */
  medianRssMb: number;
  p99RssMb: number;
  samples: number;
  /** When the highest sample was taken, and how many pages the crawl had fetched by then (its last flush). */
  peakSample: { seconds: number; fetched: number };
}

const percentile = (sorted: number[], p: number) => sorted[Math.floor((sorted.length - 1) * p)] ?? 0;

/** Crawls the /gen/ tree of `pages` pages at `origin` (the bench's site process) in a fresh worker. */
export async function crawlInWorker(options: {
  workerUrl: string;
  origin: string;
  pages: number;
  log: (message: string) => void;
}): Promise<WorkerCrawl> {
  const { pages, origin } = options;
  const concurrencyPerHost = 8;
  const worker = await startWorker(options.workerUrl, { env: { ALLOW_PRIVATE_NETWORK: 'true' } });
  const pid = worker.pid as number;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-crawl-worker-'));
  const id = randomUUID();
  try {
    const idleRssMb = rssMb(pid, 'VmRSS');
    const sitemap = path.join(dir, 'sitemap.xml');
    writeFileSync(
      sitemap,
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/gen/0</loc></url></urlset>\n`,
    );
    await insertAudit(
      id,
      'benchmark: the whole worker crawling',
      {
        normalization: 'exact',
        crawler: {
          mode: 'site',
          startUrl: `${origin}/gen/0`,
          // The /gen/ tree is one path pattern; its budget is a fifth of the page limit.
          maxPages: pages * 5,
          maxDepth: 10,
          concurrencyPerHost,
          render: false,
        },
      },
      [{ role: 'sitemap', kind: 'upload', fileName: 'sitemap.xml', storedPath: sitemap }],
    );
    options.log(
      `the whole worker: an audit crawling ${pages.toLocaleString('en-US')} pages at ${concurrencyPerHost} per host…`,
    );
    const samples: number[] = [];
    let fetched = 0;
    const started = performance.now();
    let peakSample = { seconds: 0, fetched: 0, rssMb: 0 };
    const timer = setInterval(() => {
      const rss = rssMb(pid, 'VmRSS');
      samples.push(rss);
      if (rss > peakSample.rssMb)
        peakSample = {
          seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
          fetched,
          rssMb: rss,
        };
    }, SAMPLE_MS);
    await startRun(auditRun, id);
    let audit = await getAudit(id);
    while (!audit || !isFinal(audit.status)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { rows } = await pool().query<{ n: number | null }>(
        `SELECT (crawl_progress->>'fetched')::int AS n FROM audits WHERE id = $1`,
        [id],
      );
      fetched = rows[0]?.n ?? fetched;
      audit = await getAudit(id);
    }
    clearInterval(timer);
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = rssMb(pid, 'VmHWM');
    if (audit.status !== 'succeeded' || audit.crawl.rows !== pages)
      throw new Error(
        `the worker's crawl ended ${audit.status} with ${audit.crawl.rows} of ${pages} pages: ${audit.errors.map((e) => e.message).join('; ')}`,
      );
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      pages,
      concurrencyPerHost,
      seconds: Number(seconds.toFixed(1)),
      idleRssMb,
      peakRssMb,
      medianRssMb: percentile(sorted, 0.5),
      p99RssMb: percentile(sorted, 0.99),
      samples: samples.length,
      peakSample: { seconds: peakSample.seconds, fetched: peakSample.fetched },
    };
  } finally {
    worker.kill('SIGTERM');
    if (worker.exitCode === null) await once(worker, 'exit');
    await deleteAudit(id).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
