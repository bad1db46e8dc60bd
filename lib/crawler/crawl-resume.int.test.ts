// A crawl whose worker is killed (SIGKILL) mid-crawl resumes from its frontier in Postgres on another
// worker: every page of the site exactly once in the audit's crawl, the same inlinks as a crawl that never
// stopped, and only the pages of the last unsaved flush fetched twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { getAudit } from '@/lib/audits/data';
import { insertAudit } from '@/lib/audits/mutations';
import { isFinal } from '@/lib/audits/schema';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { startRun } from '@/lib/runs/service';
import { GEN_FANOUT, startCrawlSite } from '@/lib/test-support/crawl-site';
import { urlsetXml } from '@/lib/test-support/run-audit';
import { WORKER_ENV, WORKER_NODE_ARGS, WORKER_SCRIPT } from '@/scripts/node-args';

const root = path.resolve(import.meta.dirname, '..', '..');
const PAGES = 6_000;
const workers: ChildProcess[] = [];

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await stopBoss();
});

function startWorker(): ChildProcess {
  // `node scripts/worker.mjs` runs the worker in that one process (no npm in between), so SIGKILL really
  // kills it.
  const child = spawn(process.execPath, [...WORKER_NODE_ARGS, WORKER_SCRIPT], {
    cwd: root,
    env: { ...process.env, ...WORKER_ENV, JOB_STALE_SECONDS: '2', ALLOW_PRIVATE_NETWORK: 'true' },
    stdio: ['ignore', 'ignore', process.env.DEBUG_WORKER ? 'inherit' : 'ignore'],
  });
  workers.push(child);
  return child;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function fetchedSoFar(id: string): Promise<number> {
  const { rows } = await pool().query<{ n: number | null }>(
    `SELECT (crawl_progress->>'fetched')::int AS n FROM audits WHERE id = $1`,
    [id],
  );
  return rows[0]?.n ?? 0;
}

/** Distinct pages linking to /gen/k: its children, its parent and the page before it (the site's "Next"). */
function expectedInlinks(k: number): number {
  const from = new Set<number>();
  for (let c = GEN_FANOUT * k + 1; c <= GEN_FANOUT * k + GEN_FANOUT && c < PAGES; c++) from.add(c);
  if (k > 0) {
    from.add(Math.floor((k - 1) / GEN_FANOUT));
    from.add(k - 1);
  }
  return from.size;
}

describe('a crawl whose worker is killed', () => {
  it('resumes on another worker from its stored frontier, with exact results', async () => {
    const site = await startCrawlSite({ generatedPages: PAGES, genFillerBytes: 256 });
    try {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'crawl-resume-'));
      writeFileSync(path.join(dir, 'sitemap.xml'), urlsetXml([`${site.origin}/gen/0`]));
      const id = randomUUID();
      await insertAudit(
        id,
        'crawl resume',
        {
          normalization: 'exact',
          crawler: {
            mode: 'site',
            startUrl: `${site.origin}/gen/0`,
            maxPages: 50_000,
            maxDepth: 10,
            concurrencyPerHost: 2,
            render: false,
          },
        },
        [
          {
            role: 'sitemap',
            kind: 'upload',
            fileName: 'sitemap.xml',
            storedPath: path.join(dir, 'sitemap.xml'),
          },
        ],
      );
      await startRun(auditRun, id);

      const first = startWorker();
      // Killed once a fair part of the crawl is saved, well before its end.
      const before = await waitFor('the crawl to be under way', async () => {
        const n = await fetchedSoFar(id);
        return n >= 1_000 ? n : null;
      });
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      expect(before).toBeLessThan(PAGES / 2);
      expect((await getAudit(id))?.status).toBe('running');

      const second = startWorker();
      const audit = await waitFor('the audit to finish', async () => {
        const a = await getAudit(id);
        return a && isFinal(a.status) ? a : null;
      });
      second.kill('SIGTERM');
      expect(audit.status).toBe('succeeded');
      const { rows: attempts } = await pool().query('SELECT attempt FROM audits WHERE id = $1', [id]);
      expect(attempts[0].attempt).toBe(2);

      // Every page once, each with the inlinks a crawl that never stopped counts.
      const { rows } = await pool().query<{ url: string; status: number; inlinks: number }>(
        'SELECT url, status, inlinks FROM crawl_pages WHERE audit_id = $1',
        [id],
      );
      expect(rows).toHaveLength(PAGES);
      expect(new Set(rows.map((r) => r.url)).size).toBe(PAGES);
      const wrong = rows.filter((r) => {
        const k = Number(r.url.slice(`${site.origin}/gen/`.length));
        return r.status !== 200 || r.inlinks !== expectedInlinks(k);
      });
      expect(wrong).toEqual([]);
      expect(audit.crawl.rows).toBe(PAGES);

      // Refetched: only what the killed worker had fetched since its last flush.
      const gets = site.requests.filter((r) => r.path.startsWith('/gen/')).length;
      expect(gets).toBeGreaterThanOrEqual(PAGES);
      expect(gets - PAGES).toBeLessThanOrEqual(PAGES * 0.05);
      // The add list has every page the one-URL sitemap misses.
      const { rows: add } = await pool().query(
        `SELECT count(*)::int AS n FROM findings WHERE audit_id = $1 AND list = 'add'`,
        [id],
      );
      expect(add[0].n).toBe(PAGES - 1);
    } finally {
      await site.close();
    }
  }, 120_000);
});
