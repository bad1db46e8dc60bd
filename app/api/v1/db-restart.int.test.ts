// A real Postgres restart, seen through the route handlers: while the server refuses new sessions (a
// shutdown waiting for its last session, 57P03), while it is gone (connection refused) and while it comes
// back from a crash (recovery), every request answers 503 with Retry-After, never 500, on the paths that
// reach the database through Prisma (the sign-in check, a finding's history), through pg (lists,
// decisions, the exports) and outside the API envelope (the shared PDF). Runs on a private embedded server it stops.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { GET as pdfRoute } from '@/app/r/[token]/report.pdf/route';
import { createShare } from '@/lib/auth/mutations';
import { migrateDatabase } from '@/lib/db/bootstrap';
import { closeDb, db, pool } from '@/lib/db/client';
import { type EmbeddedServer, startEmbeddedPostgres } from '@/lib/db/embedded';
import { stopBoss } from '@/lib/queue/queue';
import { toErrorResponse } from '@/lib/server/errors';
import { testCaller } from '@/lib/test-support/auth';
import { restartCluster, thrown } from '@/lib/test-support/db-restart';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { isRunning, postmasterPid } from '@/scripts/supervise/postgres-watch';
import { POST as decide } from './audits/[id]/decisions/route';
import { GET as exportFindings } from './audits/[id]/export/route';
import { GET as getFinding } from './audits/[id]/findings/[findingId]/route';
import { GET as listFindings } from './audits/[id]/findings/route';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-restart-'));
const suiteUrl = process.env.DATABASE_URL;
let server: EmbeddedServer | null = null;

afterAll(async () => {
  await stopBoss().catch(() => {});
  await closeDb();
  const pid = postmasterPid(dataDir);
  if (pid !== null && isRunning(pid)) await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.env.DATABASE_URL = suiteUrl;
});

describe('a database restart', () => {
  it('answers 503 with Retry-After on every path while Postgres stops, is down and recovers', async () => {
    await closeDb();
    server = await startEmbeddedPostgres({ dataDir });
    await migrateDatabase(server.url);
    process.env.DATABASE_URL = server.url;
    const urls = Array.from({ length: 20 }, (_, i) => `https://restart.example/page-${i + 1}`);
    const crawl = urls
      .slice(0, 5)
      .map((url) => JSON.stringify({ url, status: 200, crawled_at: '2026-11-01T00:00:00Z' }));
    const auditId = await reconciledAuditOf('Restart', { sitemaps: { 's.xml': urlsetXml(urls) }, crawl });
    await stopBoss(); // the follow-up job is queued; its worker is not part of this test
    const reviewer = await testCaller('reviewer');
    const share = await createShare(auditId, reviewer.id, null);
    const { rows } = await pool().query<{ id: number }>(
      'SELECT id FROM findings WHERE audit_id = $1 ORDER BY id LIMIT 1',
      [auditId],
    );
    const findingId = String(rows[0]?.id);
    const base = `http://localhost/api/v1/audits/${auditId}`;
    const ctx = { params: Promise.resolve({ id: auditId }) };

    const requests: Record<string, () => Promise<Response>> = {
      list: () => listFindings(reviewer.request(`${base}/findings?list=prune`), ctx),
      finding: () =>
        getFinding(reviewer.request(`${base}/findings/${findingId}`), {
          params: Promise.resolve({ id: auditId, findingId }),
        }),
      decide: () =>
        decide(
          reviewer.request(`${base}/decisions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ decision: 'rejected', ids: [Number(findingId)], note: 'restart' }),
          }),
          ctx,
        ),
      csv: () => exportFindings(reviewer.request(`${base}/export?list=prune&decision=all`), ctx),
      jsonl: () =>
        exportFindings(reviewer.request(`${base}/export?list=prune&decision=all&format=jsonl`), ctx),
      pdf: () =>
        pdfRoute(new Request(`http://localhost/r/${share.token}/report.pdf`), {
          params: Promise.resolve({ token: share.token }),
        }),
    };
    /** Every request once: name → status, with the Retry-After of each 503. */
    const sweep = async () => {
      const answers: Record<string, string> = {};
      for (const [name, send] of Object.entries(requests)) {
        const res = await send();
        await res.arrayBuffer();
        answers[name] =
          res.status === 503 ? `503 retry-after ${res.headers.get('retry-after')}` : String(res.status);
      }
      return answers;
    };
    const all = (answer: string) => Object.fromEntries(Object.keys(requests).map((name) => [name, answer]));
    expect(await sweep()).toEqual(all('200'));

    // A smart shutdown: the server waits for its last session and refuses new ones meanwhile (57P03,
    // "the database system is shutting down"). The pool's idle sessions are closed, so each request
    // needs a new one.
    const held = new pg.Client({ connectionString: server.url });
    await held.connect();
    held.on('error', () => {});
    const pid = postmasterPid(dataDir);
    expect(pid).not.toBeNull();
    process.kill(pid as number, 'SIGTERM');
    await closeDb();
    expect(await sweep()).toEqual(all('503 retry-after 5'));
    // The same refusal as pg and as Prisma 7 throw it (P2039, the SQLSTATE only in meta.driverAdapterError).
    const viaPg = await thrown(() => pool().query('SELECT 1'));
    expect((viaPg as { code?: string }).code).toBe('57P03');
    const viaPrisma = await thrown(() => db().user.count());
    expect((viaPrisma as { code?: string }).code).toBe('P2039');
    for (const error of [viaPg, viaPrisma]) expect(toErrorResponse(error).status).toBe(503);

    // Then a crash (kill -9) and a restart with crash recovery: requests while it is gone and while it
    // comes back are 503s; once it accepts sessions again, 200s.
    process.kill(pid as number, 'SIGKILL');
    await held.end().catch(() => {});
    await closeDb();
    expect(await sweep()).toEqual(all('503 retry-after 5'));
    const starting = restartCluster(dataDir);
    let started = false;
    void starting.then(() => {
      started = true;
    });
    const seen = new Set<string>();
    while (!started) for (const answer of Object.values(await sweep())) seen.add(answer);
    server = await starting;
    process.env.DATABASE_URL = server.url; // the same port as before, unless another process took it
    for (let i = 0; i < 20; i++) {
      const answers = await sweep();
      for (const answer of Object.values(answers)) seen.add(answer);
      if (Object.values(answers).every((a) => a === '200')) break;
    }
    expect(await sweep()).toEqual(all('200'));
    expect([...seen].filter((answer) => answer !== '200' && answer !== '503 retry-after 5')).toEqual([]);
  });
});
