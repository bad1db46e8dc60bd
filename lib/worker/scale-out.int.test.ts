// Many workers on one database, as separate machines would run them: two worker processes with DATA_DIRs
// of their own, every source served by URL from 127.0.0.1 (no shared disk). Audits spread over both, each
// step taken once and recorded with its worker; a worker killed (SIGKILL) mid-run leaves its audit to the
// other, which finishes it with the findings of a run never interrupted; /api/health lists the workers
// that beat, drops the dead one once its beat is stale, and answers 503 when none is left. With a bucket
// (a real S3 server, s3rver, on 127.0.0.1), files uploaded through the API are processed by a worker that
// never had them on its disk.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as health } from '@/app/api/health/route';
import { DELETE as deleteAudit } from '@/app/api/v1/audits/[id]/route';
import { POST as postAudit } from '@/app/api/v1/audits/route';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { type AuditDto, isFinal } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import type { HealthReport } from '@/lib/health/types';
import { stopBoss } from '@/lib/queue/queue';
import { startRun } from '@/lib/runs/service';
import { storage } from '@/lib/storage/store';
import { testCaller } from '@/lib/test-support/auth';
import { type LocalBucket, startLocalBucket } from '@/lib/test-support/local-bucket';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';

const root = path.resolve(import.meta.dirname, '..', '..');
const BIG = 3000;
const CHUNKS = 30;
/** The chunk after which /big.xml?hold holds its answer until released: its worker is then mid-file. */
const HELD_AFTER = 10;

let server: http.Server;
let origin = '';
/** Sitemap requests of the spread audits held until both workers hold one (each takes one ingest at a time). */
const spreadHeld: (() => void)[] = [];
let holdSpread = true;
let bigChunksServed = 0;
let releaseBig: () => void = () => {};
let bigReleased = Promise.resolve();

const loc = (i: number) => `https://shop.example/p/${i}`;
/** Declared: every page but each tenth; crawled: every page but each seventh, each thirteenth a 404 and each
 * seventeenth not indexable, and 50 pages the sitemap never declared. Every list gets rows. */
function crawlLines(pages: number): string {
  const lines: string[] = [];
  for (let i = 0; i < pages + 50; i++) {
    if (i % 7 === 0) continue;
    const status = i % 13 === 0 ? 404 : 200;
    lines.push(JSON.stringify({ url: loc(i), status, indexable: status === 200 && i % 17 !== 0 }));
  }
  return `${lines.join('\n')}\n`;
}
const declared = (i: number) => i % 10 !== 0;

const S3_SETTINGS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'];
const savedS3 = new Map(S3_SETTINGS.map((name) => [name, process.env[name]]));
let local: LocalBucket;

beforeAll(async () => {
  process.env.WORKER_HEARTBEAT_SECONDS = '1';
  // The bucket every process shares, set before the workers start (they inherit this environment).
  local = await startLocalBucket('uploads');
  Object.assign(process.env, {
    S3_ENDPOINT: local.endpoint,
    S3_BUCKET: 'uploads',
    S3_ACCESS_KEY_ID: local.accessKeyId,
    S3_SECRET_ACCESS_KEY: local.secretAccessKey,
  });
  server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.startsWith('/crawl-')) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(crawlLines(Number(url.pathname.slice('/crawl-'.length, -'.jsonl'.length))));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    if (url.pathname.startsWith('/spread/')) {
      if (holdSpread) await new Promise<void>((r) => spreadHeld.push(r));
      for (let i = 0; i < 60; i++) if (declared(i)) res.write(`<url><loc>${loc(i)}</loc></url>`);
      res.end('</urlset>');
      return;
    }
    // /big.xml, in chunks; with ?hold it stops after HELD_AFTER chunks until released.
    const perChunk = BIG / CHUNKS;
    for (let c = 0; c < CHUNKS; c++) {
      let chunk = '';
      for (let i = c * perChunk; i < (c + 1) * perChunk; i++)
        if (declared(i)) chunk += `<url><loc>${loc(i)}</loc></url>`;
      if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
      if (url.searchParams.has('hold')) {
        bigChunksServed += 1;
        if (c + 1 === HELD_AFTER) await bigReleased;
      }
      if (res.destroyed) return;
    }
    res.end('</urlset>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

interface Worker {
  process: ChildProcess;
  id: string;
  /** Its own DATA_DIR, as on a machine of its own. */
  dataDir: string;
}
const workers: Worker[] = [];

afterAll(async () => {
  delete process.env.WORKER_HEARTBEAT_SECONDS;
  for (const [name, value] of savedS3) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  releaseBig();
  for (const release of spreadHeld) release();
  for (const w of workers) w.process.kill('SIGKILL');
  await stopBoss();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await local?.close();
});

/** A worker as another machine runs it: its own DATA_DIR; it beats every second and reaps a step after 3 s
 * without a heartbeat (2 s made a busy 2-core machine reap live steps now and then). */
async function startWorker(): Promise<Worker> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-machine-'));
  const child = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
    cwd: root,
    env: {
      ...process.env,
      ...WORKER_ENV,
      DATA_DIR: dataDir,
      WORKER_HEARTBEAT_SECONDS: '1',
      JOB_STALE_SECONDS: '3',
      ALLOW_PRIVATE_NETWORK: 'true',
    },
    stdio: ['ignore', 'pipe', process.env.DEBUG_WORKER ? 'inherit' : 'ignore'],
  });
  const worker = { process: child, id: '', dataDir };
  workers.push(worker);
  let output = '';
  worker.id = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      output += String(d);
      if (process.env.DEBUG_WORKER) process.stdout.write(d);
      const ready = /worker ready \(id ([^,]+),/.exec(output);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`a worker exited (${code}) before it was ready:\n${output}`)),
    );
  });
  return worker;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function finished(id: string): Promise<AuditDto> {
  return waitFor(`audit ${id} to finish`, async () => {
    const audit = await getAudit(id);
    return audit && isFinal(audit.status) ? audit : null;
  });
}

async function newAudit(name: string, sitemap: string, pages: number): Promise<string> {
  const id = randomUUID();
  await insertAudit(id, name, { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'url', url: `${origin}${sitemap}` },
    { role: 'crawl', kind: 'url', url: `${origin}/crawl-${pages}.jsonl` },
  ]);
  await startRun(auditRun, id);
  return id;
}

async function healthNow(): Promise<{ status: number; report: HealthReport }> {
  const response = await health(new Request('http://127.0.0.1/api/health'), undefined);
  return { status: response.status, report: (await response.json()) as HealthReport };
}

/** Every claim is of one (step, attempt): no step of a run was taken by two workers. */
function expectEachStepTakenOnce(audit: AuditDto): void {
  const claims = audit.stepWorkers.map((c) => `${c.step}#${c.attempt}`);
  expect(new Set(claims).size).toBe(claims.length);
}

async function claimsBy(worker: string): Promise<number> {
  const tables = ['audits', 'audit_lints', 'spot_check_runs', 'gsc_imports', 'gsc_inspection_runs'];
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (${tables.map((t) => `SELECT step_workers FROM ${t}`).join(' UNION ALL ')}) r,
            jsonb_array_elements(r.step_workers) c WHERE c->>'worker' = $1`,
    [worker],
  );
  return rows[0]?.n ?? 0;
}

/** The findings as rows, in a stable order: what "the same findings" means. */
async function findingRows(id: string): Promise<string[]> {
  const { rows } = await pool().query<{ row: string }>(
    `SELECT list || ' ' || reason || ' ' || key AS row FROM findings WHERE audit_id = $1 ORDER BY 1`,
    [id],
  );
  return rows.map((r) => r.row);
}

describe('two workers on one database', () => {
  let a: Worker;
  let b: Worker;

  it('share six audits: both take runs, each step once, recorded with its worker', async () => {
    [a, b] = await Promise.all([startWorker(), startWorker()]);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await newAudit(`spread ${i}`, `/spread/${i}.xml`, 60));
    // Each worker takes one ingest at a time: two held sitemaps mean both hold an audit.
    await waitFor('both workers to hold an ingest', async () => spreadHeld.length >= 2);
    holdSpread = false;
    for (const release of spreadHeld) release();
    const audits = await Promise.all(ids.map(finished));
    expect(audits.map((x) => x.status)).toEqual(Array(6).fill('succeeded'));
    for (const audit of audits) expectEachStepTakenOnce(audit);
    const takers = new Set(audits.flatMap((x) => x.stepWorkers.map((c) => c.worker)));
    expect([...takers].sort()).toEqual([a.id, b.id].sort());
    expect(audits.flatMap((x) => x.stepWorkers.map((c) => c.host))).toEqual(
      expect.arrayContaining([os.hostname()]),
    );

    // The runs an audit starts when it ends (its lint) and its follow-ups (review indexes) settle too,
    // so that every claim is made before the counts are compared.
    let busy: unknown[] = [];
    await waitFor('every run of these audits to be over', async () => {
      const { rows } = await pool().query(
        `SELECT 'audit' AS kind, status::text, step, claimed_at FROM audits
          WHERE id = ANY($1) AND (step IS NOT NULL OR claimed_at IS NOT NULL)
         UNION ALL
         SELECT 'lint', status::text, step, claimed_at FROM audit_lints
          WHERE audit_id = ANY($1) AND (status IN ('queued', 'running') OR step IS NOT NULL OR claimed_at IS NOT NULL)`,
        [ids],
      );
      busy = rows;
      return rows.length === 0;
    }).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(busy)}`);
    });
    const { status, report } = await healthNow();
    expect(status).toBe(200);
    const listed = report.workers?.beating ?? [];
    expect(listed.map((w) => w.id).sort()).toEqual([a.id, b.id].sort());
    for (const w of [a, b]) {
      const row = listed.find((l) => l.id === w.id);
      expect(row).toMatchObject({ host: os.hostname(), pid: w.process.pid });
      expect(row?.runsTaken).toBeGreaterThan(0);
    }
    // Every claim counted once, on the worker that made it: the audits' steps and the runs they started
    // (each audit's lint), across every run table.
    for (const w of [a, b]) {
      const counted = listed.find((l) => l.id === w.id)?.runsTaken;
      expect(counted).toBe(await claimsBy(w.id));
    }
  }, 90_000);

  it('files uploaded through the API go to the bucket, and a worker that never saw them on disk runs the audit', async () => {
    // The same sitemap and crawl as a spread audit's, as files instead of URLs.
    const sitemap = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from(
      { length: 60 },
      (_, i) => (declared(i) ? `<url><loc>${loc(i)}</loc></url>` : ''),
    ).join('')}</urlset>`;
    const form = new FormData();
    form.append('name', 'uploaded');
    form.append('sitemap', new Blob([sitemap]), 'sitemap.xml');
    form.append('crawl', new Blob([crawlLines(60)]), 'crawl.jsonl');
    const admin = await testCaller('admin');
    const posted = await postAudit(
      admin.request('http://localhost/api/v1/audits', { method: 'POST', body: form }),
      undefined,
    );
    expect(posted.status).toBe(202);
    const { id } = (await posted.json()) as { id: string };
    const store = await storage();
    expect(store.driver).toBe('s3');
    const keys = async () => {
      const found: string[] = [];
      for await (const object of store.list(`${id}/`)) found.push(object.key);
      return found;
    };
    expect(await keys()).toEqual([`${id}/0001-sitemap.xml`, `${id}/0002-crawl.jsonl`]);

    const done = await finished(id);
    expect(done.status).toBe('succeeded');
    expect([a.id, b.id]).toContain(done.stepWorkers[0]?.worker);
    // Neither worker's machine ever had the files.
    for (const w of [a, b]) {
      const uploads = path.join(w.dataDir, 'uploads');
      expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    }
    const reference = await newAudit('by URL', '/spread/reference.xml', 60);
    await finished(reference);
    const rows = await findingRows(id);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(await findingRows(reference));

    const deleted = await deleteAudit(
      admin.request(`http://localhost/api/v1/audits/${id}`, { method: 'DELETE' }),
      { params: Promise.resolve({ id }) },
    );
    expect(deleted.status).toBeLessThan(300);
    expect(await keys()).toEqual([]);
  }, 90_000);

  it('a worker killed mid-run: the other finishes it with the findings of an uninterrupted run', async () => {
    bigReleased = new Promise((r) => {
      releaseBig = () => r();
    });
    const reference = await newAudit('never interrupted', '/big.xml', BIG);
    const killed = await newAudit('killed mid-run', '/big.xml?hold', BIG);
    await waitFor('a worker to be mid-file', async () => bigChunksServed >= HELD_AFTER);
    const holder = (await getAudit(killed))?.stepWorkers.at(-1)?.worker;
    const victim = workers.find((w) => w.id === holder) as Worker;
    const survivor = victim === a ? b : a;
    expect([a.id, b.id]).toContain(holder);
    const exited = new Promise((r) => victim.process.once('exit', r));
    victim.process.kill('SIGKILL');
    await exited;
    releaseBig();

    const [done, uninterrupted] = await Promise.all([finished(killed), finished(reference)]);
    expect(done.status).toBe('succeeded');
    expect(uninterrupted.status).toBe('succeeded');
    expectEachStepTakenOnce(done);
    expect(done.stepWorkers[0]).toMatchObject({ step: 'ingest', attempt: 1, worker: victim.id });
    expect(done.stepWorkers.slice(1).every((c) => c.worker === survivor.id && c.attempt >= 2)).toBe(true);
    expect(done.sitemap.entries).toBe(uninterrupted.sitemap.entries);
    const rows = await findingRows(killed);
    expect(rows).toEqual(await findingRows(reference));
    // Not vacuous: the lists hold rows.
    expect(done.findings?.prune).toEqual(uninterrupted.findings?.prune);
    expect(done.findings?.add).toEqual(uninterrupted.findings?.add);
    for (const list of ['prune', 'add'] as const) {
      expect(rows.filter((r) => r.startsWith(`${list} `)).length).toBeGreaterThan(0);
    }

    // /api/health: the dead worker drops out once its beat is three intervals old.
    const report = await waitFor('the dead worker to drop out of /api/health', async () => {
      const { report } = await healthNow();
      return report.workers?.beating.length === 1 ? report : null;
    });
    expect(report.status).toBe('ok');
    expect(report.workers?.beating.map((w) => w.id)).toEqual([survivor.id]);
    expect(report.workers?.heartbeats.find((h) => h.id === victim.id)?.live).toBe(false);

    // And none left: 503.
    const stopped = new Promise((r) => survivor.process.once('exit', r));
    survivor.process.kill('SIGTERM');
    await stopped;
    const { status, report: none } = await healthNow();
    expect(status).toBe(503);
    expect(none.workers?.beating).toEqual([]);
  }, 90_000);
});
