// Webhooks told of a finished run: one delivery per webhook, its stored body sent as is with the headers a
// receiver checks (the signature, with its time, verifies over the exact bytes received), retried with
// backoff until a 2xx or the last attempt, and refused by lib/net for a private address without
// ALLOW_PRIVATE_NETWORK. The attempts are run here one by one (as the worker's dispatcher would run them),
// so no wait decides the order; each failed attempt makes the next one due after its backoff. A worker
// another test file starts may claim due deliveries: the retry tests' deliveries are made due in an hour
// and with a 2 s base, so none is due before this file has run its attempt (a late one then finds it
// made: the attempt count fences it).
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cancelAudit } from '@/lib/audit-runs/service';
import { insertAudit, siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { DEFAULT_USER_AGENT } from '@/lib/net/options';
import { readAll, startTestServer, type TestServer } from '@/lib/net/test-server';
import { stopBoss } from '@/lib/queue/queue';
import type { RunCompletedPayload } from '@/lib/sites/schema';
import { insertDeliveries, insertWebhook } from '@/lib/sites/webhooks/mutations';
import { reconciledAuditOf, urlsetXml } from '@/lib/test-support/run-audit';
import { attemptDelivery, MAX_DELIVERY_ATTEMPTS, nextAttemptAt } from './webhook-delivery';

const SECRET = 'a webhook secret of some length';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let receiver: TestServer;
const received: Received[] = [];
/** Per path: the statuses to answer in turn (the last one repeats). */
const script = new Map<string, number[]>();

beforeAll(async () => {
  receiver = await startTestServer(async (req, res) => {
    const body = await readAll(req);
    const path = req.url ?? '';
    received.push({ path, headers: req.headers, body });
    const statuses = script.get(path) ?? [204];
    const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] as number);
    if (status === 302) res.writeHead(302, { location: '/elsewhere' }).end();
    else res.writeHead(status).end(status >= 400 ? 'nope' : '');
  });
});

afterAll(async () => {
  await receiver.close();
  await stopBoss();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A site with a webhook to `path` on the receiver, and a finished audit of it (ingest and reconcile run
 * here, so the run's end announces it). */
async function finishedRunWithWebhook(path: string) {
  const host = `hook-${randomUUID().slice(0, 8)}.example`;
  const siteId = await siteIdForHost(host);
  const webhook = await insertWebhook(siteId, `${receiver.origin}${path}`, SECRET, 'test');
  const auditId = await reconciledAuditOf(`${host} run`, {
    sitemaps: { 's.xml': urlsetXml([`https://${host}/a`, `https://${host}/b`, `https://${host}/c`]) },
    crawl: [JSON.stringify({ url: `https://${host}/a`, status: 200 })],
  });
  return { siteId, host, webhookId: webhook.id, auditId };
}

/** A pending delivery of a run of a new site to `path`, with no job queued for it (see the top). */
async function pendingDelivery(path: string) {
  const siteId = await siteIdForHost(`hook-${randomUUID().slice(0, 8)}.example`);
  const webhook = await insertWebhook(siteId, `${receiver.origin}${path}`, SECRET, 'test');
  const auditId = randomUUID();
  await insertAudit(auditId, 'a run', { normalization: 'exact' }, [], { siteId });
  await insertDeliveries(
    siteId,
    auditId,
    'run.completed',
    JSON.stringify({ event: 'run.completed', n: path }),
    50,
  );
  await pool().query(
    `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE webhook_id = $1`,
    [webhook.id],
  );
  return { webhookId: webhook.id };
}

async function deliveriesOf(webhookId: number) {
  const { rows } = await pool().query(
    `SELECT id::text, audit_id, event, body, status, attempts, attempt_log, response_status, error,
            delivered_at, next_attempt_at
       FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY webhook_deliveries.id`,
    [webhookId],
  );
  return rows;
}

describe('a finished run of a site', () => {
  it('sends one delivery per webhook, signed over the exact bytes received', async () => {
    const path = `/ok-${randomUUID()}`;
    const { siteId, host, webhookId, auditId } = await finishedRunWithWebhook(path);
    const [delivery] = await deliveriesOf(webhookId);
    expect(delivery).toMatchObject({
      audit_id: auditId,
      event: 'run.completed',
      status: 'pending',
      attempts: 0,
    });
    // Due at once: the worker's dispatcher sends it at its next look (woken by the announcement).
    expect(delivery.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());

    await attemptDelivery(delivery.id, 1);
    const hits = received.filter((r) => r.path === path);
    expect(hits).toHaveLength(1);
    const hit = hits[0] as Received;
    expect(hit.headers).toMatchObject({
      'content-type': 'application/json',
      'x-sitemap-audit-event': 'run.completed',
      'x-sitemap-audit-delivery': delivery.id,
      'user-agent': DEFAULT_USER_AGENT,
    });
    // What a receiver does: HMAC of "<t>.<raw body>" with the shared secret, and t recent.
    const [, t, v1] =
      /^t=([0-9]+),v1=([0-9a-f]{64})$/.exec(String(hit.headers['x-sitemap-audit-signature'])) ?? [];
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
    const expected = createHmac('sha256', SECRET).update(`${t}.`).update(hit.body).digest('hex');
    expect(v1).toBe(expected);
    expect(hit.body.toString('utf8')).toBe(delivery.body);

    const payload = JSON.parse(hit.body.toString('utf8')) as RunCompletedPayload;
    expect(payload).toMatchObject({
      event: 'run.completed',
      site: { id: siteId, host, name: host },
      run: {
        id: auditId,
        status: 'succeeded',
        complete: true,
        trigger: 'manual',
        declaredUrls: 3,
        url: `/audits/${auditId}`,
      },
      changes: { url_added: 0, url_lastmod_changed: 0, url_removed_pending: 0, url_removed_confirmed: 0 },
    });
    expect(payload.run.prune).toEqual(expect.any(Number));
    expect(payload.run.add).toEqual(expect.any(Number));

    const [done] = await deliveriesOf(webhookId);
    expect(done).toMatchObject({ status: 'delivered', attempts: 1, response_status: 204, error: null });
    expect(done.attempt_log).toEqual([
      { at: expect.any(String), status: 204, error: null, ms: expect.any(Number) },
    ]);
    expect(done.delivered_at).toEqual(new Date(done.attempt_log[0].at));

    // Sent once: the job again, or the run announced again, sends nothing more.
    await attemptDelivery(delivery.id, 1);
    const { announceRunFinished } = await import('@/lib/sites/webhooks/service');
    await announceRunFinished(auditId);
    expect(received.filter((r) => r.path === path)).toHaveLength(1);
    expect(await deliveriesOf(webhookId)).toHaveLength(1);
  });

  it('is delivered after 3 attempts when the receiver fails twice, each retry queued after its backoff', async () => {
    vi.stubEnv('WEBHOOK_RETRY_BASE_SECONDS', '2');
    const path = `/flaky-${randomUUID()}`;
    script.set(path, [500, 302, 200]);
    const { webhookId } = await pendingDelivery(path);
    const [delivery] = await deliveriesOf(webhookId);

    await attemptDelivery(delivery.id, 1);
    const afterFirst = (await deliveriesOf(webhookId))[0];
    expect(afterFirst).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_status: 500,
      error: 'HTTP 500',
    });
    // 1 × the base after the failed attempt.
    const firstAt = new Date(afterFirst.attempt_log[0].at).getTime();
    expect(afterFirst.next_attempt_at.getTime() - firstAt).toBe(2000);
    expect(afterFirst.next_attempt_at).toEqual(nextAttemptAt(1, new Date(firstAt)));

    await attemptDelivery(delivery.id, 2);
    const afterSecond = (await deliveriesOf(webhookId))[0];
    expect(afterSecond.error).toMatch(/^HTTP 302: redirects are not followed/);
    // 4 × the base after the second.
    expect(afterSecond.next_attempt_at.getTime() - new Date(afterSecond.attempt_log[1].at).getTime()).toBe(
      8000,
    );

    await attemptDelivery(delivery.id, 3);
    const [done] = await deliveriesOf(webhookId);
    expect(done).toMatchObject({ status: 'delivered', attempts: 3, response_status: 200, error: null });
    expect(done.next_attempt_at).toBeNull();
    expect(done.attempt_log.map((a: { status: number }) => a.status)).toEqual([500, 302, 200]);
    const hits = received.filter((r) => r.path === path);
    // The redirect was not followed, and every attempt sent the same bytes (each signed with its own time).
    expect(hits.map((h) => h.path)).toEqual([path, path, path]);
    expect(new Set(hits.map((h) => h.body.toString('utf8')))).toEqual(new Set([delivery.body]));
  });

  it('fails after the last attempt when the receiver always fails', async () => {
    vi.stubEnv('WEBHOOK_RETRY_BASE_SECONDS', '2');
    const path = `/down-${randomUUID()}`;
    script.set(path, [503]);
    const { webhookId } = await pendingDelivery(path);
    const [delivery] = await deliveriesOf(webhookId);
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      await attemptDelivery(delivery.id, attempt);
    }
    const [failed] = await deliveriesOf(webhookId);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: MAX_DELIVERY_ATTEMPTS,
      response_status: 503,
      error: 'HTTP 503',
      next_attempt_at: null,
    });
    expect(failed.attempt_log).toHaveLength(6);
    // A late job for the failed delivery sends nothing.
    await attemptDelivery(delivery.id, MAX_DELIVERY_ATTEMPTS);
    expect(received.filter((r) => r.path === path)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
  });

  it('is refused by lib/net for a private address without ALLOW_PRIVATE_NETWORK, the attempt saying why', async () => {
    const path = `/private-${randomUUID()}`;
    const { webhookId } = await pendingDelivery(path);
    const [delivery] = await deliveriesOf(webhookId);
    vi.stubEnv('ALLOW_PRIVATE_NETWORK', 'false');
    vi.stubEnv('ALLOWED_PORTS', String(receiver.port));
    await attemptDelivery(delivery.id, 1);
    const [refused] = await deliveriesOf(webhookId);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, response_status: null });
    expect(refused.attempt_log[0].error).toMatch(
      /private, loopback or reserved network address, which is not allowed/,
    );
    expect(received.filter((r) => r.path === path)).toEqual([]);
  });

  it('announces a cancelled run too', async () => {
    const host = `hook-${randomUUID().slice(0, 8)}.example`;
    const siteId = await siteIdForHost(host);
    const webhook = await insertWebhook(siteId, `${receiver.origin}/cancel`, SECRET, 'test');
    const auditId = randomUUID();
    await insertAudit(auditId, 'to cancel', { normalization: 'exact' }, [], { siteId });
    await cancelAudit(auditId, 'Tess Tester');
    const [delivery] = await deliveriesOf(webhook.id);
    expect(JSON.parse(delivery.body).run).toMatchObject({
      id: auditId,
      status: 'cancelled',
      complete: false,
    });
  });
});
