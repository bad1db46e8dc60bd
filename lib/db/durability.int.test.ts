// Confirmed writes survive a crash of Postgres: decisions (and their log rows), an account, its session,
// token and share, made through the app's own mutation code, are all there after `kill -9` of the
// postmaster right after the calls resolved and a restart on the same cluster.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiToken, createSession, createShare, createUser } from '@/lib/auth/mutations';
import { stopBoss } from '@/lib/queue/queue';
import { decide } from '@/lib/review/mutations';
import { restartCluster } from '@/lib/test-support/db-restart';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { migrateDatabase } from './bootstrap';
import { closeDb, pool } from './client';
import { type EmbeddedServer, startEmbeddedPostgres } from './embedded';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sitemap-audit-durable-'));
const suiteUrl = process.env.DATABASE_URL;
let server: EmbeddedServer | null = null;

afterAll(async () => {
  await closeDb();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.env.DATABASE_URL = suiteUrl;
});

describe('durability', () => {
  it('keeps every answered decision, account, session, token and share after kill -9 of Postgres', async () => {
    // This file's app code talks to a server of its own, which the test may kill.
    await closeDb();
    server = await startEmbeddedPostgres({ dataDir });
    await migrateDatabase(server.url);
    process.env.DATABASE_URL = server.url;

    const urls = Array.from({ length: 60 }, (_, i) => `https://durable.example/page-${i + 1}`);
    const crawl = urls
      .slice(0, 10)
      .map((url) => JSON.stringify({ url, status: 200, crawled_at: '2026-11-01T00:00:00Z' }));
    const auditId = await reconciledAuditOf('Durable', { sitemaps: { 's.xml': urlsetXml(urls) }, crawl });
    await stopBoss(); // the follow-up job is queued; its worker is not part of this test
    const { rows: found } = await pool().query<{ id: number }>(
      "SELECT id FROM findings WHERE audit_id = $1 AND list = 'prune' ORDER BY id",
      [auditId],
    );
    expect(found.length).toBe(50);

    // What the app answers for: each call below resolves only after its commit.
    const user = await createUser({
      email: 'durable@example.com',
      name: 'Dur',
      role: 'reviewer',
      password: 'a long password 1',
    });
    await createSession(user.id, null, null);
    const token = await createApiToken(user.id, 'durable');
    const share = await createShare(auditId, user.id, null);
    let answered = 0;
    for (const { id } of found.slice(0, 20)) {
      const result = await decide(auditId, { ids: [id] }, { decision: 'approved', by: 'Dur', note: null });
      answered += result.updated;
    }
    const bulk = await decide(
      auditId,
      { filter: { list: 'prune' } },
      { decision: 'rejected', by: 'Dur', note: 'bulk' },
    );
    answered += bulk.updated;

    // Right after the last answer: no checkpoint, no clean shutdown.
    const pid = Number(readFileSync(path.join(server.clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    server = null;
    expect(answered).toBe(50);
    expect(bulk.updated).toBe(30);
    await closeDb();

    server = await restartCluster(dataDir);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const count = async (sql: string, params: unknown[]) =>
        (await client.query<{ n: number }>(sql, params)).rows[0]?.n;
      expect(
        await count("SELECT count(*)::int AS n FROM findings WHERE audit_id = $1 AND decision = 'approved'", [
          auditId,
        ]),
      ).toBe(20);
      expect(
        await count("SELECT count(*)::int AS n FROM findings WHERE audit_id = $1 AND decision = 'rejected'", [
          auditId,
        ]),
      ).toBe(30);
      expect(await count('SELECT count(*)::int AS n FROM decision_log WHERE audit_id = $1', [auditId])).toBe(
        50,
      );
      expect(
        await count(
          "SELECT count(*)::int AS n FROM decision_log WHERE audit_id = $1 AND to_decision = 'rejected' AND note = 'bulk'",
          [auditId],
        ),
      ).toBe(30);
      expect(await count('SELECT count(*)::int AS n FROM users WHERE id = $1', [user.id])).toBe(1);
      expect(await count('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [user.id])).toBe(1);
      expect(await count('SELECT count(*)::int AS n FROM api_tokens WHERE id = $1', [token.id])).toBe(1);
      expect(await count('SELECT count(*)::int AS n FROM shares WHERE id = $1', [share.id])).toBe(1);
    } finally {
      await client.end();
    }
  });
});
