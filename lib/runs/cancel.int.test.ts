// Cancelling and deleting runs while their steps run, in this process as a worker would run them; and
// the heartbeats that make both noticed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { cancelAudit } from '@/lib/audit-runs/service';
import { getAudit } from '@/lib/audits/data';
import { deleteAudit, insertAudit, type NewSource } from '@/lib/audits/mutations';
import { AppError } from '@/lib/core/errors';
import { pool } from '@/lib/db/client';
import { partitionName } from '@/lib/db/partitions';
import { stopBoss } from '@/lib/queue/queue';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { heartbeat } from './mutations';

// Heartbeats every 500 ms: a cancelled step must notice within one.
process.env.JOB_STALE_SECONDS = '2';

const CHUNKS = 60;
let server: http.Server;
let origin = '';
const served = new Map<string, { chunks: number; aborted: boolean; finished: boolean }>();

// /slow/<name>.xml trickles a 6,000-URL urlset over about 6 s and records how far it got.
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const name = req.url ?? '';
    const state = { chunks: 0, aborted: false, finished: false };
    served.set(name, state);
    res.on('close', () => {
      if (!res.writableFinished) state.aborted = true;
    });
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    for (let c = 0; c < CHUNKS && !res.destroyed; c++) {
      let chunk = '';
      for (let i = 0; i < 100; i++) chunk += `<url><loc>https://cancel.example/p/${c * 100 + i}</loc></url>`;
      res.write(chunk);
      state.chunks += 1;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!res.destroyed) {
      res.end('</urlset>');
      state.finished = true;
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
});

afterAll(async () => {
  await stopBoss();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function newAudit(sources: NewSource[]): Promise<string> {
  const id = randomUUID();
  await insertAudit(id, 'cancel test', { normalization: 'exact' }, sources);
  return id;
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function count(sql: string, id: string): Promise<number> {
  return (await pool().query(sql, [id])).rows[0].n;
}

const entriesOf = (id: string) =>
  count('SELECT count(*)::int AS n FROM sitemap_entries WHERE audit_id = $1', id);
const filesOf = (id: string) => count('SELECT count(*)::int AS n FROM sitemap_files WHERE audit_id = $1', id);

describe('cancelling an audit', () => {
  it('stops a queued audit: its job finds nothing to do, and who cancelled it is kept', async () => {
    const id = await newAudit([{ role: 'sitemap', kind: 'url', url: `${origin}/slow/queued.xml` }]);
    await cancelAudit(id, 'Ana Reviewer');
    const audit = await getAudit(id);
    expect(audit).toMatchObject({ status: 'cancelled', phase: 'cancelled' });
    expect(audit?.cancelled).toEqual({ by: 'Ana Reviewer', at: expect.any(String) });
    await runAuditStep('ingest', id);
    expect(served.has('/slow/queued.xml')).toBe(false);
    expect(await filesOf(id)).toBe(0);
    expect((await getAudit(id))?.status).toBe('cancelled');
  });

  it('refuses an audit that has ended (409) and one that does not exist (404)', async () => {
    const id = await newAudit([{ role: 'sitemap', kind: 'url', url: `${origin}/slow/ended.xml` }]);
    await cancelAudit(id, 'Ana');
    const again = await cancelAudit(id, 'Ana').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).code).toBe('conflict');
    const missing = await cancelAudit(randomUUID(), 'Ana').catch((e: unknown) => e);
    expect((missing as AppError).code).toBe('not_found');
  });

  it('stops a running ingest within a heartbeat and keeps none of its entries, only the file it was reading', async () => {
    const id = await newAudit([{ role: 'sitemap', kind: 'url', url: `${origin}/slow/running.xml` }]);
    const running = runAuditStep('ingest', id);
    await until('the ingest to be mid-file', () => (served.get('/slow/running.xml')?.chunks ?? 0) >= 5);
    expect((await getAudit(id))?.status).toBe('running');
    await cancelAudit(id, 'Ana');
    await running;
    const state = served.get('/slow/running.xml');
    // The worker hung up long before the file's end (60 chunks, 100 ms apart).
    expect(state?.aborted).toBe(true);
    expect(state?.chunks).toBeLessThan(30);
    expect(await getAudit(id)).toMatchObject({
      status: 'cancelled',
      cancelled: { by: 'Ana' },
      sitemap: { files: 0, entries: 0 },
    });
    expect(await entriesOf(id)).toBe(0);
    // The file record stays, as the record of how far it got: not read (lib/audits/unfinished-ingest.int.test.ts).
    const { rows } = await pool().query('SELECT status, error_code FROM sitemap_files WHERE audit_id = $1', [
      id,
    ]);
    expect(rows).toEqual([{ status: 'skipped', error_code: 'cancelled' }]);
  });

  it('stops a reconcile blocked in Postgres, and keeps what the finished ingest stored', async () => {
    const crawl = path.join(mkdtempSync(path.join(os.tmpdir(), 'cancel-')), 'crawl.jsonl');
    writeFileSync(crawl, `${JSON.stringify({ url: 'https://cancel.example/p/1', status: 200 })}\n`);
    const sitemap = path.join(path.dirname(crawl), 'sitemap.xml');
    writeFileSync(
      sitemap,
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://cancel.example/p/1</loc></url><url><loc>https://cancel.example/p/2</loc></url></urlset>',
    );
    const id = await newAudit([
      { role: 'sitemap', kind: 'upload', fileName: 'sitemap.xml', storedPath: sitemap },
      { role: 'crawl', kind: 'upload', fileName: 'crawl.jsonl', storedPath: crawl },
    ]);
    await runAuditStep('ingest', id);
    expect((await getAudit(id))?.phase).toBe('reconcile_queued');
    // Another session holds the crawl partition: the reconcile's statements wait on it.
    const blocker = await pool().connect();
    await blocker.query('BEGIN');
    await blocker.query(`LOCK TABLE "${partitionName('crawl_pages', id)}" IN ACCESS EXCLUSIVE MODE`);
    try {
      const reconciling = runAuditStep('reconcile', id);
      await until('the reconcile to wait on the lock', async () => {
        const { rows } = await pool().query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [`reconcile ${id}`],
        );
        return rows[0].n > 0;
      });
      await cancelAudit(id, 'Ana');
      // Resolves while the lock is still held: the waiting statement was cancelled, not waited out.
      await reconciling;
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    expect(await getAudit(id)).toMatchObject({ status: 'cancelled', findings: null });
    const parts = await pool().query(
      "SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE $1 AND relnamespace IN ('public'::regnamespace, 'audit_bulk'::regnamespace)",
      [`%${id.replaceAll('-', '')}%`],
    );
    // The entry and crawl partitions stay; no findings, decision log or reconcile set was left behind.
    expect(parts.rows[0].n).toBe(2);
    expect(await entriesOf(id)).toBe(2);
  });
});

describe('deleting a running audit', () => {
  it('stops its ingest, which neither fails nor writes anything afterwards', async () => {
    const id = await newAudit([{ role: 'sitemap', kind: 'url', url: `${origin}/slow/deleted.xml` }]);
    const running = runAuditStep('ingest', id);
    await until('the ingest to be mid-file', () => (served.get('/slow/deleted.xml')?.chunks ?? 0) >= 5);
    expect(await deleteAudit(id)).toBe(true);
    await running;
    expect(served.get('/slow/deleted.xml')?.aborted).toBe(true);
    expect(await getAudit(id)).toBeNull();
    expect(await entriesOf(id)).toBe(0);
    expect(await filesOf(id)).toBe(0);
  });
});

describe('heartbeats', () => {
  it('keep a follow-up step (review indexes) alive without touching the finished run', async () => {
    const id = await newAudit([{ role: 'sitemap', kind: 'url', url: `${origin}/slow/follow-up.xml` }]);
    await pool().query(
      `UPDATE audits SET status = 'succeeded', phase = 'done', step = 'review_indexes', claimed_at = now(),
         heartbeat_at = now() - interval '1 hour', progress_done = 7, progress_total = 7 WHERE id = $1`,
      [id],
    );
    expect(
      await heartbeat(auditRun, { id, attempt: 1 }, { phase: null, done: 0, total: 0, counters: {} }),
    ).toBe(true);
    const { rows } = await pool().query(
      `SELECT phase, progress_done, heartbeat_at > now() - interval '1 minute' AS fresh FROM audits WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ phase: 'done', progress_done: 7, fresh: true });
  });

  it('of a claimed step write its phase and counters', async () => {
    const id = await newAudit([{ role: 'sitemap', kind: 'url', url: `${origin}/slow/counters.xml` }]);
    await pool().query(`UPDATE audits SET status = 'running', claimed_at = now() WHERE id = $1`, [id]);
    const alive = await heartbeat(
      auditRun,
      { id, attempt: 1 },
      { phase: 'sitemaps', done: 2, total: 5, counters: { sitemapFiles: 2, sitemapEntries: 1234 } },
    );
    expect(alive).toBe(true);
    const { rows } = await pool().query(
      'SELECT phase, progress_done, progress_total, sitemap_files, sitemap_entries FROM audits WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      phase: 'sitemaps',
      progress_done: 2,
      progress_total: 5,
      sitemap_files: 2,
      sitemap_entries: 1234,
    });
    // The page's progress is derived from the same row (lib/audits/progress.ts): files read of the total.
    expect(await getAudit(id)).toMatchObject({
      phase: 'sitemaps',
      progress: { done: 2, total: 5 },
      sitemap: { files: 2, entries: 1234 },
    });
    // Another attempt's heartbeat is refused: the run is not its own.
    expect(
      await heartbeat(auditRun, { id, attempt: 2 }, { phase: 'crawl', done: 0, total: 0, counters: {} }),
    ).toBe(false);
  });
});
