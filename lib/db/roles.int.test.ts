// Least privilege: the web role serves every API call path, the worker role runs a whole
// audit, and neither may change the schema or rewrite the decision log. The suite's other tests run as the
// worker role (lib/db/test-setup.ts); here the web role's narrower rights are proved too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as decideRoute } from '@/app/api/v1/audits/[id]/decisions/route';
import { GET as exportRoute } from '@/app/api/v1/audits/[id]/export/route';
import { GET as findingsRoute } from '@/app/api/v1/audits/[id]/findings/route';
import { DELETE as deleteAuditRoute } from '@/app/api/v1/audits/[id]/route';
import { POST as shareRoute } from '@/app/api/v1/audits/[id]/shares/route';
import { POST as createAudit } from '@/app/api/v1/audits/route';
import { POST as tokenRoute } from '@/app/api/v1/tokens/route';
import { POST as userRoute } from '@/app/api/v1/users/route';
import { deleteAudit } from '@/lib/audits/mutations';
import { stopBoss } from '@/lib/queue/queue';
import { decide } from '@/lib/review/mutations';
import { testCaller } from '@/lib/test-support/auth';
import { testDatabaseUrls } from '@/lib/test-support/env';
import { reconciledAuditOf, runAuditStep, urlsetXml } from '@/lib/test-support/run-audit';
import { closeDb, pool } from './client';
import { withConnection as connected } from './connection';
import { BULK_SCHEMA } from './partitions';

const ownerUrl = testDatabaseUrls().owner;
const roleUrls = { web: testDatabaseUrls().web, worker: testDatabaseUrls().worker } as const;

/** The tables and views of an audit, wherever they are, with their schema and owner. */
function auditRelations(auditId: string) {
  return connected(ownerUrl, async (client) => {
    const { rows } = await client.query<{ name: string; schema: string; owner: string }>(
      `SELECT c.relname AS name, n.nspname AS schema, pg_get_userbyid(c.relowner) AS owner
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relname LIKE '%' || $1 AND c.relkind IN ('r', 'p', 'v') ORDER BY 1`,
      [auditId.replaceAll('-', '')],
    );
    return rows;
  });
}

function smallAudit(name: string): Promise<string> {
  const urls = Array.from({ length: 12 }, (_, i) => `https://roles.example/p-${i}`);
  const crawl = urls
    .slice(0, 4)
    .map((url) => JSON.stringify({ url, status: 200, crawled_at: '2026-11-01T00:00:00Z' }));
  return reconciledAuditOf(name, { sitemaps: { 's.xml': urlsetXml(urls) }, crawl });
}

async function firstFinding(auditId: string): Promise<number> {
  const { rows } = await pool().query<{ id: number }>(
    'SELECT id FROM findings WHERE audit_id = $1 ORDER BY id LIMIT 1',
    [auditId],
  );
  return rows[0]?.id as number;
}

/** An audit with one decision, made as the worker (the suite's role). */
let decided = '';

beforeAll(async () => {
  decided = await smallAudit('Roles: decided');
  await decide(
    decided,
    { ids: [await firstFinding(decided)] },
    { decision: 'approved', by: 'R', note: null },
  );
});

afterAll(async () => {
  await stopBoss();
  await closeDb();
  process.env.DATABASE_URL = roleUrls.worker;
});

describe('the worker role', () => {
  it('runs a whole audit (ingest, reconcile, review indexes, delete) in a schema of its own', async () => {
    const id = await smallAudit('Roles: worker');
    await runAuditStep('review_indexes', id);
    const { rows } = await pool().query(
      "SELECT findings_summary->>'indexedAt' AS indexed FROM audits WHERE id = $1",
      [id],
    );
    expect(rows[0].indexed).toEqual(expect.any(String));
    const hex = id.replaceAll('-', '');
    const worker = new URL(roleUrls.worker).username;
    const relations = await auditRelations(id);
    expect(relations).toEqual(
      expect.arrayContaining([
        { name: `crawl_pages_${hex}`, schema: BULK_SCHEMA, owner: worker },
        { name: `findings_${hex}`, schema: BULK_SCHEMA, owner: worker },
        { name: `sitemap_entries_${hex}`, schema: BULK_SCHEMA, owner: worker },
        // The decision log stays the owner's, in public.
        { name: `decision_log_${hex}`, schema: 'public', owner: expect.not.stringMatching(worker) },
      ]),
    );
    expect(relations).toHaveLength(4); // the reconcile's sets are gone
    expect(await deleteAudit(id)).toBe(true);
    expect(await auditRelations(id)).toEqual([]);
  });

  it('may not erase an audit’s decisions through the decision-log function while the audit exists', async () => {
    await connected(roleUrls.worker, async (client) => {
      await expect(client.query('SELECT public.drop_decision_log_partition($1)', [decided])).rejects.toThrow(
        /holds decisions/,
      );
    });
    const { rows } = await pool().query('SELECT count(*)::int AS n FROM decision_log WHERE audit_id = $1', [
      decided,
    ]);
    expect(rows[0].n).toBe(1);
  });
});

describe.each(['web', 'worker'] as const)('the %s role is refused', (role) => {
  const attempt = (sql: string, params: unknown[] = []) =>
    connected(roleUrls[role], (client) => client.query(sql, params));

  it('schema changes: ALTER TABLE, CREATE TABLE in public', async () => {
    await expect(attempt('ALTER TABLE audits ADD COLUMN probe integer')).rejects.toThrow(/must be owner/);
    await expect(attempt('CREATE TABLE public.probe (i integer)')).rejects.toThrow(
      /permission denied for schema public/,
    );
    await expect(attempt('DROP TABLE users')).rejects.toThrow(/must be owner/);
  });

  it('UPDATE, DELETE and TRUNCATE of the decision log, through its parent or its partition', async () => {
    const part = `decision_log_${decided.replaceAll('-', '')}`;
    for (const sql of [
      "UPDATE decision_log SET note = 'rewritten' WHERE audit_id = $1",
      'DELETE FROM decision_log WHERE audit_id = $1',
      `DELETE FROM public."${part}" WHERE audit_id = $1`,
    ]) {
      await expect(attempt(sql, [decided])).rejects.toThrow(/permission denied for table decision_log/);
    }
    await expect(attempt('TRUNCATE decision_log')).rejects.toThrow(
      /permission denied for table decision_log/,
    );
    await expect(attempt('SELECT public.drop_audit_tables($1)', [decided])).rejects.toThrow(/exists/);
  });
});

describe('the web role', () => {
  it('may not create anywhere, nor make decision-log partitions', async () => {
    await connected(roleUrls.web, async (client) => {
      await expect(client.query(`CREATE TABLE ${BULK_SCHEMA}.probe (i integer)`)).rejects.toThrow(
        /permission denied for schema/,
      );
      await expect(
        client.query('SELECT public.create_decision_log_partition($1)', [decided]),
      ).rejects.toThrow(/permission denied for function/);
    });
  });

  it('serves users, tokens, shares, audit creation, decisions, pages, exports and deletion', async () => {
    const doomed = await smallAudit('Roles: deleted by the web');
    // From here on this file's app code connects as the web server does.
    await stopBoss();
    await closeDb();
    process.env.DATABASE_URL = roleUrls.web;

    const admin = await testCaller('admin');
    const reviewer = await testCaller('reviewer');
    const json = (body: unknown) => ({
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
    const base = 'http://localhost/api/v1';

    const user = await userRoute(
      admin.request(
        `${base}/users`,
        json({
          email: 'web-role@test.example',
          name: 'W',
          role: 'viewer',
          password: 'a long enough password',
        }),
      ),
      undefined,
    );
    expect(user.status).toBe(201);
    expect(
      (await tokenRoute(reviewer.request(`${base}/tokens`, json({ name: 'ci' })), undefined)).status,
    ).toBe(201);
    const created = await createAudit(
      admin.request(`${base}/audits`, json({ sitemapUrls: ['https://roles.example/sitemap.xml'] })),
      undefined,
    );
    expect(created.status).toBe(202);

    const audit = `${base}/audits/${decided}`;
    const share = await shareRoute(reviewer.request(`${audit}/shares`, json({})), ctx(decided));
    expect(share.status).toBe(201);
    const decision = await decideRoute(
      reviewer.request(
        `${audit}/decisions`,
        json({ decision: 'rejected', ids: [await firstFinding(decided)] }),
      ),
      ctx(decided),
    );
    expect(decision.status).toBe(200);
    expect(await decision.json()).toMatchObject({ updated: 1 });
    const page = await findingsRoute(reviewer.request(`${audit}/findings?list=prune`), ctx(decided));
    expect(page.status).toBe(200);
    const exported = await exportRoute(
      reviewer.request(`${audit}/export?list=prune&decision=pending&format=csv`),
      ctx(decided),
    );
    expect(exported.status).toBe(200);
    expect(await exported.text()).toContain('https://roles.example/');

    expect((await auditRelations(doomed)).length).toBeGreaterThan(0);
    const removed = await deleteAuditRoute(
      admin.request(`${base}/audits/${doomed}`, { method: 'DELETE' }),
      ctx(doomed),
    );
    expect(removed.status).toBe(204);
    expect(await auditRelations(doomed)).toEqual([]);
  });
});

describe('the owner', () => {
  it('cannot delete or truncate decision-log rows either (triggers)', async () => {
    await connected(ownerUrl, async (client) => {
      await expect(client.query('DELETE FROM decision_log WHERE audit_id = $1', [decided])).rejects.toThrow(
        /append-only/,
      );
      await expect(client.query('TRUNCATE decision_log')).rejects.toThrow(/append-only/);
    });
  });
});
