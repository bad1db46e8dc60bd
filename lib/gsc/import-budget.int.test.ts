// An import's budget of inflated bytes and its memory, through the real route and a real worker process:
// ten small zips of 49 folders of a repeated 1 MiB Table.csv (what grew a worker from 200 MB to 3.5 GB),
// a set of zips over GSC_IMPORT_MAX_BYTES, and a legitimate import of 320,000 rows. The worker's peak
// memory is read from /proc (VmHWM), so what is measured is the process that did the reading.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as postRoute } from '@/app/api/v1/audits/[id]/gsc/route';
import { pool } from '@/lib/db/client';
import { uploadsDir } from '@/lib/db/config';
import { stopBoss } from '@/lib/queue/queue';
import { startRun } from '@/lib/runs/service';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { withEnv } from '@/lib/test-support/env';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';
import { gscImportRun } from './import-run';
import type { StoredUpload } from './import-schema';
import { insertGscImport } from './mutations';
import { buildZip, type TestZipEntry } from './test-zip';

/** An import's uploads as a folder of DATA_DIR/uploads: where the disk store keeps its prefix, and where
 * imports queued before lib/storage kept their files by path. */
function importUploadDir(auditId: string, importId: string): string {
  return path.join(uploadsDir(), auditId, 'gsc', importId);
}

const root = path.resolve(import.meta.dirname, '..', '..');
const HOME = 'https://www.cowboykimono.com/';
const MiB = 1024 * 1024;
/** The worker's and the request's budget here: the legitimate import fits, a 33 MiB table does not. */
const BUDGET = 32 * MiB;
/** The worker's JavaScript heap, kept small so that its size follows what is live, not what a lazy
 * collector has yet to free: resident memory then tells an import that holds its rows from one that
 * does not. */
const HEAP_MIB = 128;
const METADATA = 'Property,Value\nSitemap,All known pages\nIssue,Not found (404)\n';

let auditId = '';
let reviewer: TestCaller;
let worker: ChildProcess;
let workerLog = '';

/** Peak and current resident memory of a process, in MiB (Linux /proc). */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

/** The audit's import upload folders on disk: a refused request leaves none. */
function uploadFolders(): string[] {
  const dir = path.dirname(importUploadDir(auditId, 'x'));
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}; worker log:\n${workerLog}`);
}

async function workerReady(): Promise<void> {
  await waitFor('the worker to start', async () => (workerLog.includes('worker ready') ? true : null));
}

/** A Table.csv of exactly `bytes`, one URL line repeated: deflates about 1000:1. */
function repetitiveTable(bytes: number): Buffer {
  const line = `${HOME}page,2025-11-14\n`;
  const head = `URL,Last crawled\n${line.repeat(Math.floor((bytes - 17) / line.length))}`;
  return Buffer.concat([Buffer.from(head), Buffer.alloc(bytes - Buffer.byteLength(head), 0x0a)]);
}

/** The hostile zip of the review: 49 folders, each a 1 MiB Table.csv (exactly the old per-entry floor). */
function hostileZip(): Buffer {
  const table = repetitiveTable(MiB);
  return buildZip(Array.from({ length: 49 }, (_, i) => ({ name: `export-${i}/Table.csv`, data: table })));
}

/** A real-looking 404 drill-down per folder, `rows` distinct URLs of about 200 characters each (long
 * product and search URLs are common; the CSV deflates about 10:1). */
function drilldownZip(folders: number, rows: number, tag: string): Buffer {
  const slug = 'sashiko-indigo-cotton-kimono-jacket-with-hand-stitched-boro-patches-'.repeat(2);
  const entries: TestZipEntry[] = [];
  for (let f = 0; f < folders; f++) {
    const lines = Array.from(
      { length: rows },
      (_, i) => `${HOME}${tag}/${f}/${slug}${i.toString(36)}?variant=${(i * 7919) % 10007},2025-11-14`,
    );
    entries.push({ name: `${tag}-${f}/Metadata.csv`, data: METADATA });
    entries.push({ name: `${tag}-${f}/Table.csv`, data: `URL,Last crawled\n${lines.join('\n')}\n` });
  }
  return buildZip(entries);
}

function post(files: { name: string; data: Buffer }[]): Promise<Response> {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.data)]), f.name);
  const url = `http://localhost/api/v1/audits/${auditId}/gsc`;
  return postRoute(reviewer.request(url, { method: 'POST', body: form }), {
    params: Promise.resolve({ id: auditId }),
  } as never);
}

/** An import whose files skipped the request (as one stored before this version would have): the
 * worker's own checks are what stands between them and the database. */
async function queuedImport(files: { name: string; data: Buffer }[]): Promise<string> {
  const id = randomUUID();
  const dir = importUploadDir(auditId, id);
  mkdirSync(dir, { recursive: true });
  const uploads: StoredUpload[] = files.map((f, i) => {
    const storedPath = path.join(dir, `${i}-${f.name}`);
    writeFileSync(storedPath, f.data);
    return { name: f.name, storedPath, bytes: f.data.length };
  });
  await insertGscImport(id, auditId, uploads, reviewer.id, null);
  await startRun(gscImportRun, id);
  return id;
}

interface Finished {
  status: string;
  message: string | null;
  attempt: number;
  rows: number;
  problems: unknown;
}

async function finished(importId: string): Promise<Finished> {
  return waitFor(`import ${importId} to finish`, async () => {
    const { rows } = await pool().query<Finished>(
      `SELECT i.status, i.error_message AS message, i.attempt, i.problems,
              (SELECT count(*)::int FROM gsc_url_states s WHERE s.import_id = i.id) AS rows
         FROM gsc_imports i WHERE i.id = $1`,
      [importId],
    );
    const row = rows[0];
    return row && (row.status === 'succeeded' || row.status === 'failed') ? row : null;
  });
}

beforeAll(async () => {
  auditId = await reconciledAuditOf('GSC import budget', {
    sitemaps: { 'sitemap.xml': urlsetXml([HOME]) },
    crawl: [JSON.stringify({ url: HOME, status: 200 })],
  });
  reviewer = await testCaller('reviewer');
  worker = spawn(process.execPath, [...WORKER_NODE_ARGS, `--max-old-space-size=${HEAP_MIB}`, WORKER_SCRIPT], {
    cwd: root,
    env: { ...process.env, ...WORKER_ENV, GSC_IMPORT_MAX_BYTES: String(BUDGET) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout?.on('data', (d) => {
    workerLog += String(d);
  });
  worker.stderr?.on('data', (d) => {
    workerLog += String(d);
  });
  await workerReady();
}, 60_000);

afterAll(async () => {
  worker?.kill('SIGKILL');
  await stopBoss();
});

describe('ten hostile zips of 49 repeated 1 MiB tables', () => {
  const zips = () => {
    const zip = hostileZip();
    expect(zip.length).toBeLessThan(200 * 1024); // a few KB a folder, as in the review
    return Array.from({ length: 10 }, (_, i) => ({ name: `hostile-${i + 1}.zip`, data: zip }));
  };

  it('are refused by the request with a 413 naming the zip and the limit, nothing stored', async () => {
    const foldersBefore = uploadFolders();
    const before = await pool().query('SELECT count(*)::int AS n FROM gsc_imports WHERE audit_id = $1', [
      auditId,
    ]);
    const res = await post(zips());
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('inflated_too_large');
    expect(body.error.message).toMatch(
      /^Nothing was imported: hostile-1\.zip: the zip inflates \d+:1 as a whole \(\d+ KiB to 49 MiB\), more than the 100:1 Search Console's exports do; refused as a zip bomb$/,
    );
    const after = await pool().query('SELECT count(*)::int AS n FROM gsc_imports WHERE audit_id = $1', [
      auditId,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(uploadFolders()).toEqual(foldersBefore);
  });

  it('fail the import on the worker, once, with its memory far from the gigabytes they used to take', async () => {
    const id = await queuedImport(zips());
    const done = await finished(id);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(
      /^Nothing was imported: hostile-1\.zip: the zip inflates \d+:1 as a whole .*100:1/,
    );
    expect(done.attempt).toBe(1); // failed for good, not retried
    expect(done.rows).toBe(0);
    expect(existsSync(importUploadDir(auditId, id))).toBe(false);
    expect(worker.exitCode).toBeNull();
    expect(memoryOf(worker.pid as number).peak).toBeLessThan(400);
  });
});

describe('an import over the budget (GSC_IMPORT_MAX_BYTES)', () => {
  // A real export, then a zip of four 9 MiB tables (stored, 1:1): together more than the 32 MiB.
  const zips = () => [
    { name: 'first.zip', data: drilldownZip(1, 2_000, 'first') },
    {
      name: 'over.zip',
      data: buildZip(
        [0, 1, 2, 3].flatMap((f) => [
          { name: `big-${f}/Metadata.csv`, data: METADATA },
          { name: `big-${f}/Table.csv`, data: repetitiveTable(9 * MiB), store: true },
        ]),
      ),
    },
  ];

  it('is refused by the request: 413 naming the file and the limit', async () => {
    const res = await withEnv({ GSC_IMPORT_MAX_BYTES: String(BUDGET) }, () => post(zips()));
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('inflated_too_large');
    expect(body.error.message).toMatch(
      /^Nothing was imported: over\.zip: the zip declares 36 MiB uncompressed, more than the 31\.\d MiB left of the 32 MiB of uncompressed data one Search Console import may hold \(GSC_IMPORT_MAX_BYTES\)$/,
    );
  });

  it('fails on the worker with nothing stored: the rows of the export read first are gone too', async () => {
    const id = await queuedImport(zips());
    const done = await finished(id);
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(
      /^Nothing was imported: over\.zip: the zip declares 36 MiB .* the 32 MiB .*\(GSC_IMPORT_MAX_BYTES\)$/,
    );
    expect(done.attempt).toBe(1);
    expect(done.rows).toBe(0);
    expect(worker.exitCode).toBeNull();
  });
});

describe('a legitimate import of 160,000 rows', () => {
  it('is stored with the worker memory flat in the number of rows: one export held at a time', async () => {
    // A small import first, so the code an import loads is in memory before the measure starts.
    const warm = await finished(
      await queuedImport([{ name: 'warm.zip', data: drilldownZip(1, 2_000, 'warm') }]),
    );
    expect(warm.status).toBe('succeeded');
    const before = memoryOf(worker.pid as number);
    // 8 exports of 20,000 rows (Google's own cap is 1,000 a table: users pack many exports in one zip).
    const id = await queuedImport([{ name: 'many.zip', data: drilldownZip(8, 20_000, 'many') }]);
    const done = await finished(id);
    expect(done.status, done.message ?? '').toBe('succeeded');
    expect(done.rows).toBe(160_000);
    const after = memoryOf(worker.pid as number);
    // Measured on this import: all rows held until the end took 128 MB more than before it, one export
    // at a time 59 MB (the same whatever the number of exports).
    expect(after.peak - before.now).toBeLessThan(100);
  });
});
