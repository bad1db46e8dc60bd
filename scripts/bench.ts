// `npm run bench`: throughput through the real job path, then findings page latency and export speed,
// and (when python3 and ../shared/reference/reconcile_sitemap.py exist) the reference script on the
// same inputs, then the DuckDB peer (scripts/bench/peer.ts: DuckDB + lxml in a venv made on demand, timed
// like the reference and checked against its counts; skipped with a note when it cannot be installed).
// Options (env): BENCH_URLS (1000000), BENCH_CRAWL_ROWS (1000000), BENCH_DIR (<tmp>/sitemap-audit-bench),
// BENCH_QUICK=1 (only the end-to-end audit, the reference script and the DuckDB peer: for trying a change
// to ingest or reconcile),
// BENCH_CPU_PROF=<dir> (CPU profiles of the timed worker's threads, run from the sources through tsx),
// BENCH_STAGES=0 (no stage profile: by default the end-to-end audit runs once more on a worker run from the
// sources with CPU profiles and SQL_TRACE=1, and its CPU by stage and statements by kind are printed:
// scripts/bench/stages.ts), BENCH_FLOOR=0 (no storage floor: by default the timed audit's own rows are written
// again by PostgreSQL alone, nothing computed, scripts/bench/floor.ts), BENCH_SPOT_ONLY=1 (only the
// live spot-check of 2,000 rows over 50 local hosts: no large inputs needed), BENCH_PAGE_ONLY=1 (only the audit
// page's first screen, on the newest reconciled audit of BENCH_URLS URLs or more in the bench's database,
// built first when there is none), BENCH_LINT_ONLY=1 (only `sitemap-audit lint` on the BENCH_URLS tree served
// over HTTP, as a child process under /usr/bin/time -v: URLs/s and peak RSS; no database), BENCH_SET_ONLY=1 (only
// the corrected sitemap set of that audit, built as the zip route builds it: URLs/s and peak RSS), BENCH_DIFF_ONLY=1
// (only a site's two runs of that audit's size, scripts/bench/diff.ts: the change events and GET …/diff),
// BENCH_CRAWL_ONLY=1 (only the built-in crawler, scripts/bench/crawler.ts: a local site of 20,000 then 100,000
// pages with no latency, crawled at concurrency 16 into the Postgres store by a child process, pages/s, CPU
// per page and its peak RSS, beside crawlee's CheerioCrawler on the same site; BENCH_CRAWL_SIZES=20000,100000
// and BENCH_CRAWLEE_UP_TO=<pages> (20000: at 100,000 it ran 10 minutes) choose the sizes and up to which
// crawlee runs too; BENCH_CRAWL_NODE_ARGS adds node flags to our crawling child (--expose-gc: its live heap).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { isFinal } from '@/lib/audits/schema';
import { ensureDatabase } from '@/lib/db/bootstrap';
import { closeDb, pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { startRun } from '@/lib/runs/service';
import { sitemapSetSummary, sitemapSetZip } from '@/lib/sitemap-set/service';
import { measureAuditPage } from './bench/audit-page';
import { logCrawler, measureCrawler } from './bench/crawler';
import { measureDiff } from './bench/diff';
import { measureExport, measurePages } from './bench/findings';
import { describeFloor, measureStorageFloor, type StorageFloor } from './bench/floor';
import { type BenchInputs, generateInputs } from './bench/generate';
import { describePeer, runDuckdbPeer, runPlaybook } from './bench/peer';
import { cpuSecondsOf, rssMb } from './bench/proc';
import { measureSpotCheck } from './bench/spot-check';
import { cpuByStage, NOT_STAGES, sqlByStage, stageLines } from './bench/stages';
import { startWorker } from './bench/worker-process';

const root = path.resolve(import.meta.dirname, '..');
const URLS = Number(process.env.BENCH_URLS ?? 1_000_000);
const CRAWL_ROWS = Number(process.env.BENCH_CRAWL_ROWS ?? 1_000_000);
// Outside the repository by default: the Next.js dev server watches the project folder.
const dir = path.resolve(process.env.BENCH_DIR ?? path.join(os.tmpdir(), 'sitemap-audit-bench'));
const QUICK = process.env.BENCH_QUICK === '1';
const SPOT_ONLY = process.env.BENCH_SPOT_ONLY === '1';
const PAGE_ONLY = process.env.BENCH_PAGE_ONLY === '1';
const LINT_ONLY = process.env.BENCH_LINT_ONLY === '1';
const SET_ONLY = process.env.BENCH_SET_ONLY === '1';
const DIFF_ONLY = process.env.BENCH_DIFF_ONLY === '1';
const CRAWL_ONLY = process.env.BENCH_CRAWL_ONLY === '1';
const STAGES = process.env.BENCH_STAGES !== '0';
const FLOOR = process.env.BENCH_FLOOR !== '0';

/** The storage floor of the timed audit (scripts/bench/floor.ts), or why it was not measured. */
async function storageFloor(url: string, auditId: string): Promise<StorageFloor | string> {
  if (!FLOOR) return 'not measured (BENCH_FLOOR=0)';
  return measureStorageFloor(url, auditId, dir);
}
const CRAWL_SIZES = (process.env.BENCH_CRAWL_SIZES ?? '20000,100000').split(',').map(Number);
const CRAWLEE_UP_TO = Number(process.env.BENCH_CRAWLEE_UP_TO ?? 20_000);
const referenceScript = path.resolve(root, '..', 'shared', 'reference', 'reconcile_sitemap.py');
const log = (message: string) => console.log(`[bench] ${message}`);

function serveTree(inputs: BenchInputs): Promise<{ server: http.Server; indexUrl: string }> {
  const server = http.createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (name === 'one-url.xml') {
      // For timing the crawl export on its own: a sitemap of one URL.
      res.writeHead(200, { 'content-type': 'text/plain' }).end('https://bench.example/only\n');
      return;
    }
    if (name === 'sitemap-index.xml') {
      const origin = `http://${req.headers.host}`;
      const children = Array.from(
        { length: inputs.files },
        (_, f) => `<sitemap><loc>${origin}/sitemap-${f + 1}.xml.gz</loc></sitemap>`,
      );
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${children.join('\n')}\n</sitemapindex>\n`,
      );
      return;
    }
    const file = path.join(inputs.treeDir, path.basename(name));
    if (!/^sitemap-\d+\.xml\.gz$/.test(name) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        indexUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap-index.xml`,
      }),
    ),
  );
}

function peakRssMb(pid: number): number {
  return rssMb(pid, 'VmHWM');
}

/** Runs the classic playbook script on the same URLs (one gzip file) and crawl export, timed. */
function runReference(inputs: BenchInputs): { seconds: number; prune: number; add: number } | null {
  const python = spawnSync('python3', ['--version']);
  if (python.status !== 0 || !existsSync(referenceScript)) return null;
  const { out, ...counts } = runPlaybook('python3', referenceScript, inputs, 'the reference script');
  rmSync(out, { recursive: true, force: true });
  return counts;
}

type Source = Parameters<typeof insertAudit>[3][number];

/** The machine's busy and total CPU time so far (all cores, in clock ticks), from /proc/stat. */
function cpuTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

/** Creates an audit, queues it as the API does and waits until it is final; records how busy the CPUs
 * were in each phase it went through (are the cores saturated, or is a step waiting on one?). */
async function runAudit(sources: Source[]) {
  const id = randomUUID();
  await insertAudit(id, 'benchmark', { normalization: 'exact' }, sources);
  await startRun(auditRun, id);
  let audit = await getAudit(id);
  const busy: Record<string, { busy: number; total: number; ms: number }> = {};
  let last = cpuTicks();
  let lastAt = performance.now();
  while (audit && !isFinal(audit.status)) {
    await new Promise((r) => setTimeout(r, 50));
    const phase = audit.phase;
    const now = cpuTicks();
    busy[phase] ??= { busy: 0, total: 0, ms: 0 };
    busy[phase].busy += now.busy - last.busy;
    busy[phase].total += now.total - last.total;
    busy[phase].ms += performance.now() - lastAt;
    last = now;
    lastAt = performance.now();
    audit = await getAudit(id);
  }
  if (!audit) throw new Error('the audit disappeared');
  const cpuBusy = Object.fromEntries(
    Object.entries(busy).map(([phase, t]) => [
      phase,
      `${(t.ms / 1000).toFixed(1)} s at ${Math.round((100 * t.busy) / Math.max(1, t.total))} %`,
    ]),
  );
  return { ...audit, cpuBusy };
}

/**
 * The stage profile: the same audit once more on a worker started to profile (the timed worker stopped
 * first, so that it takes no job); the CPU of its threads by stage and Postgres's statements by kind.
 */
async function profileStages(workerUrl: string, sources: Source[]) {
  // Kept in BENCH_CPU_PROF when it is set, for a look in Chrome's DevTools.
  const keep = process.env.BENCH_CPU_PROF;
  const profDir = keep ? path.join(keep, 'stages') : mkdtempSync(path.join(os.tmpdir(), 'bench-stages-'));
  mkdirSync(profDir, { recursive: true });
  const worker = await startWorker(workerUrl, { cpuProfDir: profDir });
  let audit: Awaited<ReturnType<typeof runAudit>>;
  try {
    audit = await runAudit(sources);
  } finally {
    // Profiles are written when the threads and the process exit.
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  }
  const cpu = cpuByStage(profDir);
  const sql = sqlByStage(worker.sqlTrace.join('\n'));
  if (keep) writeFileSync(path.join(profDir, 'sql-trace.log'), `${worker.sqlTrace.join('\n')}\n`);
  if (!keep) rmSync(profDir, { recursive: true, force: true });
  return {
    wallSeconds: audit.timings,
    workerCpuSeconds: Object.fromEntries(
      Object.entries(cpu.ms).map(([k, ms]) => [k, Number((ms / 1000).toFixed(2))]),
    ),
    profiledThreads: cpu.threads,
    sqlSeconds: Object.fromEntries(
      Object.entries(sql.ms).map(([k, ms]) => [k, Number((ms / 1000).toFixed(2))]),
    ),
    statements: sql.statements,
  };
}

function logStages(stages: Awaited<ReturnType<typeof profileStages>>) {
  const t = stages.wallSeconds;
  log(
    `stage profile (a second run of the audit, profiled; wall: ingest ${t.ingest} s — sitemap ${t.sitemaps} s beside crawl ${t.crawl} s — reconcile ${t.reconcile} s)`,
  );
  log(`  the worker's CPU by stage, over its ${stages.profiledThreads} threads:`);
  for (const line of stageLines(mapMs(stages.workerCpuSeconds))) log(`    ${line}`);
  log(
    `    (not stages: ${NOT_STAGES.map((k) => `${k} ${stages.workerCpuSeconds[k] ?? 0} s`).join(', ')}, over the worker's life)`,
  );
  log(
    `  Postgres statements by kind (${stages.statements} traced; COPY streams are timed with their reader above):`,
  );
  for (const line of stageLines(mapMs(stages.sqlSeconds))) log(`    ${line}`);
}

const mapMs = (seconds: Record<string, number>) =>
  Object.fromEntries(Object.entries(seconds).map(([k, s]) => [k, s * 1000]));

/** A one-URL audit through every job, as a long-running worker has always done by the time an audit
 * comes in: modules loaded and compiled, database clients and pools open on both sides. */
async function warmUp(sitemap: Source) {
  const warmUpCrawl = path.join(dir, 'warm-up-crawl.jsonl');
  writeFileSync(
    warmUpCrawl,
    `${JSON.stringify({ url: 'https://bench.example/only', status: 200, indexable: true })}\n`,
  );
  await runAudit([
    sitemap,
    { role: 'crawl', kind: 'upload', fileName: 'warm-up-crawl.jsonl', storedPath: warmUpCrawl },
  ]);
}

/** BENCH_SPOT_ONLY=1: the live spot-check alone, on a fresh worker (its RSS is the check's). */
async function spotCheckOnly() {
  mkdirSync(dir, { recursive: true });
  process.env.DATA_DIR ??= path.join(dir, 'data');
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const database = await ensureDatabase(log);
  const worker = await startWorker(database.workerUrl, { cpuProfDir: process.env.BENCH_CPU_PROF });
  try {
    const oneUrl = path.join(dir, 'one-url.txt');
    writeFileSync(oneUrl, 'https://bench.example/only\n');
    await warmUp({ role: 'sitemap', kind: 'upload', fileName: 'one-url.txt', storedPath: oneUrl });
    const spotCheck = await measureSpotCheck(
      dir,
      runAudit,
      () => workerRss(worker),
      () => cpuSecondsOf(worker.pid as number),
      log,
    );
    console.log(JSON.stringify({ date: new Date().toISOString(), spotCheck }, null, 2));
    logSpotCheck(spotCheck);
  } finally {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
    await stopBoss();
    await closeDb();
    await database.stop();
  }
}

function workerRss(worker: ChildProcess) {
  return { current: rssMb(worker.pid as number, 'VmRSS'), peak: rssMb(worker.pid as number, 'VmHWM') };
}

function logSpotCheck(s: Awaited<ReturnType<typeof measureSpotCheck>>) {
  log(
    `spot-check: ${s.rows} rows over ${s.hosts} hosts in ${s.seconds} s (${s.checksPerSecond} checks/s; ${s.requestsPerSecond} requests/s while checking, bound ${s.concurrencyBoundPerSecond}/s by 20 at once × ${s.latencyMs} ms)`,
  );
  log(
    `spot-check: at most ${s.maxInFlight} requests in flight, ${s.maxPerHost} on one host; worker CPU ${s.workerCpuMsPerCheck} ms per check (${Math.round(100 * s.workerCpuShare)} % of one core); worker RSS ${s.workerRssMb.before} → ${s.workerRssMb.after} MB (peak ${s.workerRssMb.peak} MB)`,
  );
}

/** Waits until the audit's review indexes are built (they are built in the background once it is final). */
async function waitForIndexes(id: string) {
  while ((await getAudit(id))?.findings?.indexesReady === false) await new Promise((r) => setTimeout(r, 200));
}

/** The newest reconciled audit of URLS URLs or more in the bench's database, built first when there is none. */
async function benchAudit(database: Awaited<ReturnType<typeof ensureDatabase>>): Promise<string> {
  const { rows } = await pool().query<{ id: string }>(
    `SELECT id FROM audits WHERE status = 'succeeded' AND reconciled_at IS NOT NULL AND sitemap_entries >= $1
     ORDER BY created_at DESC LIMIT 1`,
    [URLS],
  );
  const found = rows[0]?.id;
  if (found) return found;
  log(`no reconciled audit of ${URLS.toLocaleString('en-US')} URLs yet: building one…`);
  const inputs = await generateInputs(dir, URLS, CRAWL_ROWS, log);
  const { server, indexUrl } = await serveTree(inputs);
  const worker = await startWorker(database.workerUrl, { cpuProfDir: process.env.BENCH_CPU_PROF });
  try {
    const crawl = {
      role: 'crawl',
      kind: 'upload',
      fileName: 'crawl.jsonl',
      storedPath: inputs.crawlFile,
    } as const;
    const id = (await runAudit([{ role: 'sitemap', kind: 'url', url: indexUrl }, crawl])).id;
    await waitForIndexes(id);
    return id;
  } finally {
    worker.kill('SIGTERM');
    await once(worker, 'exit');
    server.close();
  }
}

/** BENCH_PAGE_ONLY=1: the audit page's first screen (scripts/bench/audit-page.ts) on a warm server. */
async function pageOnly() {
  process.env.DATA_DIR ??= path.join(dir, 'data');
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const database = await ensureDatabase(log);
  try {
    const id = await benchAudit(database);
    await waitForIndexes(id);
    log(`timing the audit page's first screen on audit ${id}…`);
    const auditPage = await measureAuditPage(id);
    console.log(JSON.stringify({ date: new Date().toISOString(), auditId: id, auditPage }, null, 2));
    for (const [name, t] of Object.entries(auditPage.requests))
      log(`${name}: p50 ${t.p50Ms} ms, p95 ${t.p95Ms} ms`);
    log(
      `before: audit, then the rest at once: p50 ${auditPage.beforeAuditThenParallel.p50Ms} ms, p95 ${auditPage.beforeAuditThenParallel.p95Ms} ms (plus two browser round trips)`,
    );
    log(
      `now: the server's reads for the page (with the HTML): p50 ${auditPage.withSeedServerReads.p50Ms} ms, p95 ${auditPage.withSeedServerReads.p95Ms} ms (target: summary < 500 ms)`,
    );
  } finally {
    await stopBoss();
    await closeDb();
    await database.stop();
  }
}

/**
 * BENCH_LINT_ONLY=1: the CLI as a pipeline runs it, on the benchmark tree (an index and gzip files of
 * 50,000 URLs) served from 127.0.0.1. /usr/bin/time reports the child's peak RSS; the JSON its totals.
 */
async function lintOnly() {
  const inputs = await generateInputs(dir, URLS, CRAWL_ROWS, log);
  const { server, indexUrl } = await serveTree(inputs);
  try {
    const cli = path.join(root, 'bin', 'sitemap-audit.mjs');
    const startedAt = performance.now();
    const child = spawn('/usr/bin/time', ['-v', process.execPath, cli, 'lint', indexUrl, '--json'], {
      env: { ...process.env, ALLOW_PRIVATE_NETWORK: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const [exitCode] = await once(child, 'exit');
    const seconds = (performance.now() - startedAt) / 1000;
    const report = JSON.parse(stdout) as {
      totals: { files: number; urls: number; distinctUrls: number };
      results: { code: string; count: number }[];
    };
    const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
    const lint = {
      files: report.totals.files,
      urls: report.totals.urls,
      seconds: Math.round(seconds * 10) / 10,
      urlsPerSecond: Math.round(report.totals.urls / seconds),
      peakRssMb: Math.round(peakKb / 1024),
      exitCode,
      rules: report.results.map((rule) => `${rule.code}: ${rule.count}`),
    };
    console.log(JSON.stringify({ date: new Date().toISOString(), lint }, null, 2));
    log(
      `lint: ${lint.urls.toLocaleString('en-US')} URLs in ${lint.files} files in ${lint.seconds} s (${lint.urlsPerSecond.toLocaleString('en-US')} URLs/s), peak RSS ${lint.peakRssMb} MB, exit ${exitCode}`,
    );
  } finally {
    server.close();
  }
}

/**
 * BENCH_SET_ONLY=1: the corrected sitemap set of the bench's audit (benchAudit), built as
 * GET …/sitemap-set.zip builds it and read to the end in this process: URLs/s, and the process's peak RSS
 * sampled every 50 ms (the set is streamed, so it should not follow the URL count).
 */
async function setOnly() {
  process.env.DATA_DIR ??= path.join(dir, 'data');
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const database = await ensureDatabase(log);
  try {
    const id = await benchAudit(database);
    // The default layout (each file as read) unless BENCH_SET_LAYOUT=sections.
    const layout = process.env.BENCH_SET_LAYOUT === 'sections' ? 'sections' : 'input';
    const options = {
      layout,
      gzip: true,
      maxUrls: layout === 'sections' ? 25_000 : undefined,
      base: 'https://bench.example/',
    } as const;
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    const summaryStart = performance.now();
    const summary = await sitemapSetSummary(id, options);
    const summarySeconds = (performance.now() - summaryStart) / 1000;
    const startedAt = performance.now();
    const { body } = await sitemapSetZip(id, options);
    let zipBytes = 0;
    for await (const chunk of body) zipBytes += chunk.byteLength;
    const seconds = (performance.now() - startedAt) / 1000;
    clearInterval(sampler);
    const set = {
      urls: summary.after.urls,
      files: summary.after.files,
      zipMb: Math.round(zipBytes / 1024 / 1024),
      summarySeconds: Math.round(summarySeconds * 10) / 10,
      seconds: Math.round(seconds * 10) / 10,
      urlsPerSecond: Math.round(summary.after.urls / seconds),
      peakRssMb: Math.round(peakRss / 1024 / 1024),
    };
    console.log(JSON.stringify({ date: new Date().toISOString(), auditId: id, set }, null, 2));
    log(
      `sitemap set: ${set.urls.toLocaleString('en-US')} URLs in ${set.files} files (${set.zipMb} MB zip) in ${set.seconds} s (${set.urlsPerSecond.toLocaleString('en-US')} URLs/s; summary ${set.summarySeconds} s), peak RSS ${set.peakRssMb} MB`,
    );
  } finally {
    await stopBoss();
    await closeDb();
    await database.stop();
  }
}

/** BENCH_DIFF_ONLY=1: the change events and the diff between two runs of the bench audit's size. */
async function diffOnly() {
  process.env.DATA_DIR ??= path.join(dir, 'data');
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const database = await ensureDatabase(log);
  try {
    const id = await benchAudit(database);
    const diff = await measureDiff(id, log);
    console.log(JSON.stringify({ date: new Date().toISOString(), auditId: id, diff }, null, 2));
    log(
      `change events: ${JSON.stringify(diff.events)} over ${diff.urls.toLocaleString('en-US')} URLs in ${diff.settleSeconds} s (the settling of the second run; the baseline took ${diff.baselineSeconds} s); ${diff.confirmedUnreached.toLocaleString('en-US')} unreached rows confirmed`,
    );
    log(
      `diff counts and first page: ${diff.diffSeconds[0]} s the first time (computed and stored), then ${diff.diffSeconds.slice(1).join(' s, ')} s from the stored rows; a page of one type: ${diff.diffTypePageSeconds} s; counts ${JSON.stringify(diff.diffCounts)}`,
    );
  } finally {
    await stopBoss();
    await closeDb();
    await database.stop();
  }
}

/** The built-in crawler and crawlee on the same local sites (scripts/bench/crawler.ts). */
function crawler(database: Awaited<ReturnType<typeof ensureDatabase>>) {
  return measureCrawler({
    workerUrl: database.workerUrl,
    sizes: CRAWL_SIZES,
    crawleeUpTo: CRAWLEE_UP_TO,
    log,
  });
}

/** BENCH_CRAWL_ONLY=1: the built-in crawler alone, beside crawlee; no large inputs. */
async function crawlOnly() {
  mkdirSync(dir, { recursive: true });
  process.env.DATA_DIR ??= path.join(dir, 'data');
  const database = await ensureDatabase(log);
  try {
    const sizes = await crawler(database);
    console.log(JSON.stringify({ date: new Date().toISOString(), crawler: sizes }, null, 2));
    logCrawler(sizes, log);
  } finally {
    await stopBoss();
    await closeDb();
    await database.stop();
  }
}

async function main() {
  if (CRAWL_ONLY) return crawlOnly();
  if (DIFF_ONLY) return diffOnly();
  if (LINT_ONLY) return lintOnly();
  if (SET_ONLY) return setOnly();
  if (SPOT_ONLY) return spotCheckOnly();
  if (PAGE_ONLY) return pageOnly();
  const inputs = await generateInputs(dir, URLS, CRAWL_ROWS, log);
  process.env.DATA_DIR ??= path.join(dir, 'data');
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  const database = await ensureDatabase(log);
  const { server, indexUrl } = await serveTree(inputs);
  const worker = await startWorker(database.workerUrl, { cpuProfDir: process.env.BENCH_CPU_PROF });
  const stopWorker = async () => {
    if (worker.exitCode !== null || worker.signalCode !== null) return;
    worker.kill('SIGTERM');
    await once(worker, 'exit');
  };
  const shutdown = async () => {
    await stopWorker();
    server.close();
    await stopBoss();
    await closeDb();
    await database.stop();
  };

  const crawlSource = {
    role: 'crawl',
    kind: 'upload',
    fileName: path.basename(inputs.crawlFile),
    storedPath: inputs.crawlFile,
  } as const;
  await warmUp({ role: 'sitemap', kind: 'url', url: indexUrl.replace('sitemap-index.xml', 'one-url.xml') });
  const queuedAt = performance.now();
  const sources: Source[] = [{ role: 'sitemap', kind: 'url', url: indexUrl }, crawlSource];
  const audit = await runAudit(sources);
  const doneAt = performance.now();
  const rss = peakRssMb(worker.pid as number);
  const { id } = audit;
  // The job's own timings: the sitemap tree and the crawl export are read at the same time, each timed
  // from the start of the ingest to the end of its own load.
  const sitemapSeconds = audit.timings.sitemaps ?? Number.NaN;
  const crawlSeconds = audit.timings.crawl ?? Number.NaN;
  const reconcileSeconds = audit.timings.reconcile ?? Number.NaN;
  const findings = audit.findings;

  const waitForIndexes = async () => {
    let indexed = audit.findings?.indexesReady ?? true;
    while (!indexed) {
      await new Promise((r) => setTimeout(r, 200));
      indexed = (await getAudit(id))?.findings?.indexesReady ?? true;
    }
  };
  if (QUICK) {
    // The review indexes are built in the background: not while the reference script is being timed.
    await waitForIndexes();
    const reference = runReference(inputs);
    const ours = (doneAt - queuedAt) / 1000;
    const duckdbPeer = runDuckdbPeer(inputs, reference, ours, log);
    const floor = await storageFloor(database.workerUrl, id);
    log(
      `ingest ${audit.timings.ingest} s (sitemap ${sitemapSeconds} s, crawl ${crawlSeconds} s), reconcile ${reconcileSeconds} s, peak RSS ${rss} MB`,
    );
    log(`CPU busy per phase (both cores): ${JSON.stringify(audit.cpuBusy)}`);
    log(
      `end to end ${ours.toFixed(2)} s` +
        (reference
          ? ` vs reference script ${reference.seconds} s (ratio ${(ours / reference.seconds).toFixed(2)})`
          : '') +
        describePeer(duckdbPeer),
    );
    log(describeFloor(floor));
    if (STAGES) {
      await stopWorker();
      logStages(await profileStages(database.workerUrl, sources));
    }
    await shutdown();
    return;
  }

  log('waiting for the review indexes…');
  await waitForIndexes();
  const indexSeconds = (performance.now() - doneAt) / 1000;
  log('timing findings pages and the export…');
  const pages = await measurePages(id);
  const exported = await measureExport(id, 'prune');
  const spotCheck = await measureSpotCheck(
    dir,
    runAudit,
    () => workerRss(worker),
    () => cpuSecondsOf(worker.pid as number),
    log,
  );
  const crawled = await crawler(database);
  log('timing each source on its own…');
  const sitemapAlone = (await runAudit([{ role: 'sitemap', kind: 'url', url: indexUrl }])).timings.sitemaps;
  const crawlAlone = (
    await runAudit([
      { role: 'sitemap', kind: 'url', url: indexUrl.replace('sitemap-index.xml', 'one-url.xml') },
      crawlSource,
    ])
  ).timings.crawl;
  log('running the reference script on the same inputs…');
  const reference = runReference(inputs);
  const ours = (doneAt - queuedAt) / 1000;
  log('running the DuckDB peer on the same inputs…');
  const duckdbPeer = runDuckdbPeer(inputs, reference, ours, log);
  log('measuring the storage floor…');
  const floor = await storageFloor(database.workerUrl, id);
  let stages: Awaited<ReturnType<typeof profileStages>> | string = 'not run (BENCH_STAGES=0)';
  if (STAGES) {
    log('profiling the stages on a second run of the audit…');
    await stopWorker();
    stages = await profileStages(database.workerUrl, sources);
  }

  const result = {
    date: new Date().toISOString(),
    status: audit.status,
    ingest: {
      seconds: audit.timings.ingest ?? null,
      rowsPerSecond: Math.round(
        (audit.sitemap.entries + audit.crawl.rows) / (audit.timings.ingest ?? Number.NaN),
      ),
    },
    sitemap: {
      urls: audit.sitemap.entries,
      files: audit.sitemap.files,
      secondsBesideCrawl: Number(sitemapSeconds.toFixed(2)),
      seconds: sitemapAlone ?? null,
      urlsPerSecond: Math.round(audit.sitemap.entries / (sitemapAlone ?? Number.NaN)),
    },
    crawl: {
      rows: audit.crawl.rows,
      secondsBesideSitemap: Number(crawlSeconds.toFixed(2)),
      seconds: crawlAlone ?? null,
      rowsPerSecond: Math.round(audit.crawl.rows / (crawlAlone ?? Number.NaN)),
    },
    reconcile: {
      seconds: Number(reconcileSeconds.toFixed(2)),
      prune: findings?.prune.total ?? 0,
      add: findings?.add.total ?? 0,
      held: findings?.held.total ?? 0,
      reviewIndexesSeconds: Number(indexSeconds.toFixed(2)),
    },
    endToEndSeconds: Number(ours.toFixed(2)),
    cpuBusy: audit.cpuBusy,
    workerPeakRssMb: rss,
    findingsPage: pages,
    export: exported,
    spotCheck,
    crawler: crawled,
    reference: reference
      ? { ...reference, oursOverReference: Number((ours / reference.seconds).toFixed(2)) }
      : 'not run (python3 or the script is missing)',
    duckdbPeer,
    storageFloor: floor,
    stages,
  };
  console.log(JSON.stringify(result, null, 2));
  log(
    `sitemap ingest alone: ${result.sitemap.urlsPerSecond.toLocaleString('en-US')} URLs/s (target ≥ 100,000)`,
  );
  log(
    `crawl ingest alone:   ${result.crawl.rowsPerSecond.toLocaleString('en-US')} rows/s (target ≥ 100,000)`,
  );
  log(
    `both together:        ${(audit.sitemap.entries + audit.crawl.rows).toLocaleString('en-US')} rows in ${result.ingest.seconds} s (${result.ingest.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
  );
  log(`worker peak RSS: ${rss} MB (target < 500 MB)`);
  log(
    `reconcile: ${result.reconcile.seconds} s for ${URLS.toLocaleString('en-US')} × ${CRAWL_ROWS.toLocaleString('en-US')} (target < 15 s)`,
  );
  log(`findings page: p50 ${pages.p50Ms} ms, p95 ${pages.p95Ms} ms (target p95 < 100 ms)`);
  log(`export: ${exported.rowsPerSecond.toLocaleString('en-US')} rows/s (target ≥ 200,000)`);
  logSpotCheck(spotCheck);
  logCrawler(crawled, log);
  if (reference)
    log(
      `end to end ${result.endToEndSeconds} s vs reference script ${reference.seconds} s (ratio ${result.reference && typeof result.reference === 'object' ? result.reference.oursOverReference : ''}, target ≤ 1)${describePeer(duckdbPeer)}`,
    );
  log(describeFloor(floor));
  if (typeof stages !== 'string') logStages(stages);
  writeFileSync(path.join(dir, 'last-result.json'), JSON.stringify(result, null, 2));

  await shutdown();
}

await main();
