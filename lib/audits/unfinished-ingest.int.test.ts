// An audit that ends in the middle of its ingest (cancelled or failed) counts what it stored: its tiles,
// its file list and its counters agree, the file it was reading says why it was never read, and a write
// of its walk that comes after the end changes nothing (once, after a cancel, the tiles said 0 files
// while the tree listed two, one of them "Pending" for ever).
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRun } from '@/lib/audit-runs/run';
import { cancelAudit } from '@/lib/audit-runs/service';
import { pool } from '@/lib/db/client';
import { emptyOutcome } from '@/lib/ingest/file-outcome';
import { createFileRecord, finishFileRecord } from '@/lib/ingest/mutations';
import { startTestServer, type TestServer } from '@/lib/net/test-server';
import { failStep } from '@/lib/runs/mutations';
import { RunAbandoned } from '@/lib/runs/progress';
import { stepOf } from '@/lib/runs/runner';
import { runAuditStep } from '@/lib/test-support/run-audit';
import { getAudit, listSitemapFiles } from './data';
import { isNotRead } from './labels';
import { insertAudit } from './mutations';
import type { AuditDto, SitemapFilePage } from './schema';

// Heartbeats every 500 ms: the walk notices the end within one.
process.env.JOB_STALE_SECONDS = '2';

let server: TestServer;
/** Responses of the hanging child, ended by the test's cleanup. */
const hanging = new Set<http.ServerResponse>();

const urlset = (prefix: string, n: number) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: n }, (_, i) => `<url><loc>https://unfinished.example/${prefix}/${i}</loc></url>`).join('')}</urlset>`;

// /index.xml names a child answered at once (3 URLs), a second one (2 URLs) and a third that never answers.
beforeAll(async () => {
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  server = await startTestServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/index.xml') {
      const locs = ['a.xml', 'b.xml', 'hang.xml'].map(
        (c) => `<sitemap><loc>${server.origin}/${c}</loc></sitemap>`,
      );
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</sitemapindex>`,
      );
    }
    if (url === '/a.xml' || url === '/b.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return void res.end(url === '/a.xml' ? urlset('a', 3) : urlset('b', 2));
    }
    if (url === '/hang.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      hanging.add(res);
      return;
    }
    res.writeHead(404).end();
  });
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await server.close();
});

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000) {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An ingest of /index.xml, stopped by `end` once it is reading the child that never answers. */
async function endMidIngest(end: (id: string) => Promise<void>): Promise<string> {
  const id = randomUUID();
  await insertAudit(id, 'unfinished', { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'url', url: `${server.origin}/index.xml` },
  ]);
  const running = runAuditStep('ingest', id);
  await until('the ingest to read the hanging child', async () => {
    const { rows } = await pool().query(
      `SELECT count(*)::int AS n FROM sitemap_files WHERE audit_id = $1 AND url LIKE '%/hang.xml' AND status = 'pending'`,
      [id],
    );
    return rows[0].n === 1;
  });
  await end(id);
  await running;
  return id;
}

/** The sitemap counts the audit shows, and what its file list holds. */
function expectAgree(audit: AuditDto | null, files: SitemapFilePage) {
  const read = files.items.filter((f) => !isNotRead(f));
  const entries = read.filter((f) => f.kind === 'urlset').reduce((sum, f) => sum + f.entries, 0);
  expect(audit?.sitemap).toMatchObject({ files: read.length, entries, filesFailed: 0 });
  expect(files.items.some((f) => f.status === 'pending')).toBe(false);
}

describe('an audit that ends mid-ingest', () => {
  it('cancelled: counts the files it read, and its unread child says it was not read', async () => {
    const id = await endMidIngest((auditId) => cancelAudit(auditId, 'Ana'));
    const audit = await getAudit(id);
    const files = await listSitemapFiles(id);
    expect(audit?.status).toBe('cancelled');
    expect(audit?.sitemap).toMatchObject({ files: 3, entries: 5, filesFailed: 0 });
    expect(audit?.crawl.rows).toBe(0);
    expectAgree(audit, files);
    expect(files.items.map((f) => [f.url?.split('/').pop(), f.status, f.error?.message ?? null])).toEqual([
      ['index.xml', 'ok', null],
      ['a.xml', 'ok', null],
      ['b.xml', 'ok', null],
      ['hang.xml', 'skipped', 'Not read: the audit was cancelled'],
    ]);
    expect(files.items.at(-1)?.error?.code).toBe('cancelled');
  });

  it('failed: counts the files it read, and its unread child says the audit failed', async () => {
    const ingest = stepOf(auditRun, 'ingest');
    const id = await endMidIngest((auditId) =>
      failStep(auditRun, { id: auditId, attempt: 1 }, ingest, 'The ingest failed unexpectedly'),
    );
    const audit = await getAudit(id);
    const files = await listSitemapFiles(id);
    expect(audit?.status).toBe('failed');
    expect(audit?.sitemap).toMatchObject({ files: 3, entries: 5, filesFailed: 0 });
    expectAgree(audit, files);
    expect(files.items.at(-1)).toMatchObject({
      status: 'failed',
      error: { code: 'interrupted', message: 'Not read: the audit failed' },
    });
  });

  it('keeps a write of its walk that comes after the end from changing anything', async () => {
    const id = await endMidIngest((auditId) => cancelAudit(auditId, 'Ana'));
    const before = await listSitemapFiles(id);
    const unread = before.items.at(-1);
    if (!unread) throw new Error('no file');
    // The walk finishing the file it was reading, and starting another, after the cancel.
    const late = { ...emptyOutcome('ok', null), entries: 1000 };
    await expect(finishFileRecord(unread.id, late)).rejects.toBeInstanceOf(RunAbandoned);
    await expect(
      createFileRecord(id, 99, {
        parentId: null,
        url: 'https://unfinished.example/late.xml',
        uploadName: null,
        kind: null,
        depth: 0,
      }),
    ).rejects.toBeInstanceOf(RunAbandoned);
    expect(await listSitemapFiles(id)).toEqual(before);
    expectAgree(await getAudit(id), before);
  });
});
