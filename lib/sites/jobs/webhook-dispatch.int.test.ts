// Webhooks that cannot block each other, against receivers on 127.0.0.1: three that never answer (their
// sockets held open until the test answers them) while a healthy one still gets its delivery; a webhook
// paused after repeated failures, its new events held, and resumed through the API; the pending cap; and
// a secret stored before sealing, sealed and still signing. Nothing waits on the clock: the test waits for
// its receivers' and the dispatcher's own events. Each dispatcher here serves only this file's webhooks
// (the suite's database is shared by every test file).
import { randomBytes, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import os from 'node:os';
import nodePath from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as deliveriesRoute } from '@/app/api/v1/sites/[id]/webhooks/[webhookId]/deliveries/route';
import { POST as resumeRoute } from '@/app/api/v1/sites/[id]/webhooks/[webhookId]/resume/route';
import { GET as listRoute } from '@/app/api/v1/sites/[id]/webhooks/route';
import { insertAudit, siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { defaultMigrationsDir, listMigrations, migrate } from '@/lib/db/migrate';
import { readAll, startTestServer, type TestServer } from '@/lib/net/test-server';
import type { DeliveryPage, WebhookDto } from '@/lib/sites/schema';
import { insertDeliveries, insertWebhook, sealLegacySecrets } from '@/lib/sites/webhooks/mutations';
import { announceRunFinished } from '@/lib/sites/webhooks/service';
import { verifyWebhookSignature } from '@/lib/sites/webhooks/signature';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { testDatabaseUrls } from '@/lib/test-support/env';
import { attemptDelivery } from './webhook-delivery';
import { claimDeliveries, type DeliveryDispatcher, startDeliveryDispatcher } from './webhook-dispatch';

const SECRET = 'a webhook secret of some length';

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  res: ServerResponse;
}

/** Wakes `until` waiters whenever a receiver or the dispatcher did something. */
let waiters: (() => void)[] = [];
function changed(): void {
  const ready = waiters;
  waiters = [];
  for (const wake of ready) wake();
}
async function until(what: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await what())) await new Promise<void>((resolve) => waiters.push(resolve));
}

/** A receiver that holds every request open (never answers) while `holding`, else answers `status`. */
let holding = true;
let status = 204;
const hits: Hit[] = [];
let receiver: TestServer;
let admin: TestCaller;
const dispatchers: DeliveryDispatcher[] = [];

beforeAll(async () => {
  receiver = await startTestServer(async (req, res) => {
    const body = await readAll(req);
    const path = req.url ?? '';
    hits.push({ path, headers: req.headers, body, res });
    // The healthy receiver answers at once; the others while the test holds them.
    if (path.startsWith('/healthy') || !holding)
      res.writeHead(path.startsWith('/healthy') ? 204 : status).end();
    changed();
  });
  admin = await testCaller('admin');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
});

afterAll(async () => {
  await receiver.close();
});

/** A new site with a webhook to `path`, and `events` deliveries made for it (oldest first). */
async function webhookWithDeliveries(path: string, events: number) {
  const siteId = await siteIdForHost(`dispatch-${randomUUID().slice(0, 8)}.example`);
  const webhook = await insertWebhook(siteId, `${receiver.origin}${path}`, SECRET, 'test');
  const deliveryIds: string[] = [];
  for (let i = 0; i < events; i++) deliveryIds.push(...(await newEvent(siteId)));
  return { siteId, webhookId: webhook.id, deliveryIds };
}

async function newEvent(siteId: string, maxPending = 50): Promise<string[]> {
  const auditId = randomUUID();
  await insertAudit(auditId, 'a run', { normalization: 'exact' }, [], { siteId });
  const made = await insertDeliveries(
    siteId,
    auditId,
    'run.completed',
    JSON.stringify({ auditId }),
    maxPending,
  );
  return made.ids;
}

async function deliveryRows(webhookId: number) {
  const { rows } = await pool().query(
    `SELECT id::text, status, attempts, error, next_attempt_at FROM webhook_deliveries
      WHERE webhook_id = $1 ORDER BY webhook_deliveries.id`,
    [webhookId],
  );
  return rows;
}

function dispatch(only: number[], onAttempt?: () => void): DeliveryDispatcher {
  // No poll during the test: kicks and finished attempts drive it.
  const dispatcher = startDeliveryDispatcher({
    only,
    concurrency: 4,
    pollMs: 3_600_000,
    log: () => {},
    onAttempt: () => {
      onAttempt?.();
      changed();
    },
  });
  dispatchers.push(dispatcher);
  return dispatcher;
}

async function listed(siteId: string, webhookId: number): Promise<WebhookDto> {
  const res = await listRoute(admin.request(`http://localhost/api/v1/sites/${siteId}/webhooks`), {
    params: Promise.resolve({ id: siteId }),
  });
  const items = (await res.json()).items as WebhookDto[];
  return items.find((w) => w.id === webhookId) as WebhookDto;
}

describe('the delivery dispatcher', () => {
  it('delivers to a healthy receiver while three receivers never answer, one attempt per webhook', async () => {
    holding = true;
    const run = randomUUID();
    // The silent ones' deliveries are older, so they are claimed first; the first silent webhook has two.
    const silent = [
      await webhookWithDeliveries(`/silent-a-${run}`, 2),
      await webhookWithDeliveries(`/silent-b-${run}`, 1),
      await webhookWithDeliveries(`/silent-c-${run}`, 1),
    ];
    const healthy = await webhookWithDeliveries(`/healthy-${run}`, 1);
    const ours = (prefix: string) => hits.filter((h) => h.path.startsWith(prefix) && h.path.endsWith(run));
    let healthyDone = false;
    const dispatcher = dispatch([...silent, healthy].map((w) => w.webhookId));
    await until(async () => {
      const [row] = await deliveryRows(healthy.webhookId);
      healthyDone = row?.status === 'delivered';
      return healthyDone && ours('/silent').length === 3;
    });

    // The healthy receiver was served while all three silent ones still hold their sockets unanswered.
    expect(ours('/healthy')).toHaveLength(1);
    expect(ours('/silent').map((h) => h.path.split('-')[1])).toEqual(expect.arrayContaining(['a', 'b', 'c']));
    expect(ours('/silent').every((h) => !h.res.writableEnded)).toBe(true);
    expect(await deliveryRows(healthy.webhookId)).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1 }),
    ]);
    // The first silent webhook's second delivery waits for its first: one attempt in flight per webhook,
    // and no other claimer (another worker) can take a leased webhook.
    expect(ours('/silent-a')).toHaveLength(1);
    expect((await deliveryRows(silent[0]?.webhookId ?? 0)).map((d) => d.attempts)).toEqual([0, 0]);
    expect(
      await claimDeliveries(
        10,
        silent.map((w) => w.webhookId),
      ),
    ).toEqual([]);

    // The silent receivers answer at last (503), then the first webhook's second delivery goes.
    holding = false;
    status = 204;
    for (const hit of ours('/silent')) hit.res.writeHead(503).end();
    await until(() => ours('/silent-a').length === 2);
    await dispatcher.idle();
    const [first, second] = await deliveryRows(silent[0]?.webhookId ?? 0);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, error: 'HTTP 503' });
    expect(first.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(second).toMatchObject({ status: 'delivered', attempts: 1 });
    const { rows } = await pool().query('SELECT busy_delivery_id FROM site_webhooks WHERE id = ANY($1)', [
      silent.map((w) => w.webhookId),
    ]);
    expect(rows.map((r) => r.busy_delivery_id)).toEqual([null, null, null]);
  });

  it('pauses a webhook after consecutive failed attempts, holds its new events, and resumes it', async () => {
    vi.stubEnv('WEBHOOK_PAUSE_AFTER_FAILURES', '3');
    holding = false;
    status = 500;
    const path = `/pause-${randomUUID()}`;
    const { siteId, webhookId, deliveryIds } = await webhookWithDeliveries(path, 1);
    const [first] = deliveryIds as [string];
    expect((await attemptDelivery(first, 1)).paused).toBe(false);
    expect((await attemptDelivery(first, 2)).paused).toBe(false);
    expect(await attemptDelivery(first, 3)).toMatchObject({
      recorded: true,
      paused: true,
      error: 'HTTP 500',
    });

    const paused = await listed(siteId, webhookId);
    expect(paused).toMatchObject({
      state: 'paused',
      pausedReason: '3 consecutive failed attempts; the last: HTTP 500',
      consecutiveFailures: 3,
      pendingDeliveries: 1,
    });
    expect(Date.now() - Date.parse(paused.pausedAt ?? '')).toBeLessThan(60_000);

    // A new event is recorded and due, but a paused webhook is not claimed.
    const [held] = (await newEvent(siteId)) as [string];
    expect((await deliveryRows(webhookId)).map((d) => d.status)).toEqual(['pending', 'pending']);
    expect(await claimDeliveries(10, [webhookId])).toEqual([]);
    expect(hits.filter((h) => h.path === path)).toHaveLength(3);

    // Resumed through the API: both pending deliveries are sent, the count starts again.
    status = 204;
    const res = await resumeRoute(
      admin.request(`http://localhost/api/v1/sites/${siteId}/webhooks/${webhookId}/resume`, {
        method: 'POST',
      }),
      { params: Promise.resolve({ id: siteId, webhookId: String(webhookId) }) },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: webhookId,
      state: 'active',
      pausedAt: null,
      pausedReason: null,
    });
    const dispatcher = dispatch([webhookId]);
    await until(async () => (await deliveryRows(webhookId)).every((d) => d.status === 'delivered'));
    await dispatcher.idle();
    expect(await deliveryRows(webhookId)).toEqual([
      expect.objectContaining({ id: first, status: 'delivered', attempts: 4 }),
      expect.objectContaining({ id: held, status: 'delivered', attempts: 1 }),
    ]);
    expect(await listed(siteId, webhookId)).toMatchObject({ state: 'active', consecutiveFailures: 0 });

    const missing = await resumeRoute(
      admin.request(`http://localhost/api/v1/sites/${siteId}/webhooks/2000000000/resume`, { method: 'POST' }),
      { params: Promise.resolve({ id: siteId, webhookId: '2000000000' }) },
    );
    expect(missing.status).toBe(404);
  });

  it('keeps at most WEBHOOK_MAX_PENDING pending deliveries, dropping the oldest with a reason and a log line', async () => {
    vi.stubEnv('WEBHOOK_MAX_PENDING', '3');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const siteId = await siteIdForHost(`cap-${randomUUID().slice(0, 8)}.example`);
    const webhook = await insertWebhook(siteId, `${receiver.origin}/cap`, SECRET, 'test');
    // Paused, so no dispatcher sends them while the test looks.
    await pool().query('UPDATE site_webhooks SET paused_at = now() WHERE id = $1', [webhook.id]);
    const audits: string[] = [];
    for (let i = 0; i < 5; i++) {
      const auditId = randomUUID();
      await insertAudit(auditId, `run ${i}`, { normalization: 'exact' }, [], { siteId });
      await pool().query(`UPDATE audits SET status = 'cancelled', finished_at = now() WHERE id = $1`, [
        auditId,
      ]);
      await announceRunFinished(auditId);
      audits.push(auditId);
    }
    const rows = await deliveryRows(webhook.id);
    expect(rows.map((d) => d.status)).toEqual(['dropped', 'dropped', 'pending', 'pending', 'pending']);
    expect(rows[0].error).toBe(
      'Dropped unsent: more than 3 deliveries were pending for this webhook (WEBHOOK_MAX_PENDING); the oldest are dropped',
    );
    const logged = warn.mock.calls
      .map((call) => String(call[0]))
      .filter((line) => line.includes(`webhook ${webhook.id}:`));
    expect(logged).toEqual([
      `[webhooks] webhook ${webhook.id}: dropped 1 unsent deliveries (${rows[0].id}): more than 3 were pending (WEBHOOK_MAX_PENDING)`,
      `[webhooks] webhook ${webhook.id}: dropped 1 unsent deliveries (${rows[1].id}): more than 3 were pending (WEBHOOK_MAX_PENDING)`,
    ]);
    warn.mockRestore();

    const res = await deliveriesRoute(
      admin.request(`http://localhost/api/v1/sites/${siteId}/webhooks/${webhook.id}/deliveries`),
      { params: Promise.resolve({ id: siteId, webhookId: String(webhook.id) }) },
    );
    const page = (await res.json()) as DeliveryPage;
    expect(page.items.map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'dropped', 'dropped']);
    expect(await listed(siteId, webhook.id)).toMatchObject({ state: 'paused', pendingDeliveries: 3 });
  });
});

describe('a secret stored in plain text before sealing', () => {
  it('is kept by the migration as legacy_secret, for the worker to seal', async () => {
    const admin = new pg.Client({ connectionString: testDatabaseUrls().owner });
    await admin.connect();
    const name = `webhook_migration_${randomBytes(5).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(testDatabaseUrls().owner);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.href });
    // The migrations up to the one before sealing, then the rest.
    const before = mkdtempSync(nodePath.join(os.tmpdir(), 'migrations-'));
    for (const m of listMigrations().filter((m) => m.name < '20261203170300')) {
      cpSync(nodePath.join(defaultMigrationsDir, m.name), nodePath.join(before, m.name), { recursive: true });
    }
    try {
      await client.connect();
      await migrate(client, before);
      const site = await client.query<{ id: string }>(
        `INSERT INTO sites (host, name) VALUES ('old.example', 'old.example') RETURNING id`,
      );
      await client.query(
        `INSERT INTO site_webhooks (site_id, url, secret, created_by) VALUES ($1, 'https://hooks.example/in', $2, 'test')`,
        [site.rows[0]?.id, SECRET],
      );
      await migrate(client);
      const { rows } = await client.query(
        'SELECT legacy_secret, secret_ciphertext, paused_at, consecutive_failures FROM site_webhooks',
      );
      expect(rows).toEqual([
        { legacy_secret: SECRET, secret_ciphertext: null, paused_at: null, consecutive_failures: 0 },
      ]);
      // A webhook with no secret at all is refused.
      await expect(
        client.query(
          `INSERT INTO site_webhooks (site_id, url, created_by) VALUES ($1, 'https://hooks.example/x', 'test')`,
          [site.rows[0]?.id],
        ),
      ).rejects.toThrow(/site_webhooks_secret_check/);
    } finally {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      rmSync(before, { recursive: true, force: true });
    }
  });

  it('is sealed by the worker’s pass (or by its next delivery) and still signs, replays refused', async () => {
    holding = false;
    status = 204;
    const legacy = async (path: string) => {
      const siteId = await siteIdForHost(`legacy-${randomUUID().slice(0, 8)}.example`);
      // What the migration leaves of a webhook made before: the secret in plain text.
      const { rows } = await pool().query<{ id: number }>(
        `INSERT INTO site_webhooks (site_id, url, legacy_secret, created_by) VALUES ($1, $2, $3, 'test') RETURNING id`,
        [siteId, `${receiver.origin}${path}`, SECRET],
      );
      const [deliveryId] = (await newEvent(siteId)) as [string];
      await pool().query(
        `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = $1`,
        [deliveryId],
      );
      return { webhookId: rows[0]?.id as number, deliveryId };
    };
    const stored = async (webhookId: number) =>
      (
        await pool().query(
          'SELECT row_to_json(w)::text AS text, legacy_secret, secret_ciphertext FROM site_webhooks w WHERE id = $1',
          [webhookId],
        )
      ).rows[0];

    const swept = await legacy(`/legacy-${randomUUID()}`);
    const lazy = await legacy(`/lazy-${randomUUID()}`);
    expect((await stored(swept.webhookId)).text).toContain(SECRET);
    expect(await sealLegacySecrets(swept.webhookId)).toBe(1);
    const sealed = await stored(swept.webhookId);
    expect(sealed.legacy_secret).toBeNull();
    expect(sealed.text).not.toContain(SECRET);

    for (const { webhookId, deliveryId } of [swept, lazy]) {
      expect(await attemptDelivery(deliveryId, 1)).toMatchObject({ recorded: true, delivered: true });
      expect((await stored(webhookId)).text).not.toContain(SECRET);
      const hit = hits.find((h) => h.headers['x-sitemap-audit-delivery'] === deliveryId) as Hit;
      const header = String(hit.headers['x-sitemap-audit-signature']);
      // The receiver's check (docs/api.md): verified now, refused when the same bytes come 10 minutes later.
      expect(verifyWebhookSignature(SECRET, header, hit.body)).toMatchObject({ ok: true });
      const later = new Date(Date.now() + 10 * 60_000);
      expect(verifyWebhookSignature(SECRET, header, hit.body, { now: later })).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/outside the 300 s tolerance$/),
      });
    }
  });
});
