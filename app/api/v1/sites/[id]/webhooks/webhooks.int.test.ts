// A site's webhooks through the API: admins add (URL checked), list and remove them and read each one's
// deliveries newest first, a page at a time; nobody else may; and the secret is in no answer, ever.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import type { DeliveryPage, WebhookDto } from '@/lib/sites/schema';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { GET as siteRoute } from '../route';
import { GET as deliveriesRoute } from './[webhookId]/deliveries/route';
import { DELETE as deleteRoute } from './[webhookId]/route';
import { POST as createRoute, GET as listRoute } from './route';

const SECRET = `s3cret-${randomUUID()}`;
let siteId = '';
let admin: TestCaller;
let reviewer: TestCaller;
let viewer: TestCaller;
/** Every answer's text, to look for the secret in. */
const answers: string[] = [];

const base = () => `http://localhost/api/v1/sites/${siteId}/webhooks`;

async function record(res: Response): Promise<Response> {
  answers.push(await res.clone().text());
  return res;
}

function create(caller: TestCaller, body: unknown): Promise<Response> {
  return createRoute(
    caller.request(base(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: siteId }) },
  ).then(record);
}

function list(caller: TestCaller): Promise<Response> {
  return listRoute(caller.request(base()), { params: Promise.resolve({ id: siteId }) }).then(record);
}

function deliveries(caller: TestCaller, webhookId: number, query = ''): Promise<Response> {
  return deliveriesRoute(caller.request(`${base()}/${webhookId}/deliveries${query}`), {
    params: Promise.resolve({ id: siteId, webhookId: String(webhookId) }),
  }).then(record);
}

function remove(caller: TestCaller, webhookId: number): Promise<Response> {
  return deleteRoute(caller.request(`${base()}/${webhookId}`, { method: 'DELETE' }), {
    params: Promise.resolve({ id: siteId, webhookId: String(webhookId) }),
  }).then(record);
}

beforeAll(async () => {
  siteId = await siteIdForHost(`webhooks-${randomUUID().slice(0, 8)}.example`);
  [admin, reviewer, viewer] = await Promise.all([
    testCaller('admin', 'Ada Admin'),
    testCaller('reviewer'),
    testCaller('viewer'),
  ]);
});

describe('webhooks', () => {
  it('are added, listed and removed by admins, never showing the secret', async () => {
    const res = await create(admin, { url: 'https://hooks.example/in#frag', secret: SECRET });
    expect(res.status).toBe(201);
    const hook = (await res.json()) as WebhookDto;
    expect(hook).toEqual({
      id: expect.any(Number),
      siteId,
      url: 'https://hooks.example/in',
      createdBy: 'Ada Admin',
      createdAt: expect.any(String),
      state: 'active',
      pausedAt: null,
      pausedReason: null,
      consecutiveFailures: 0,
      pendingDeliveries: 0,
      lastDelivery: null,
    });
    // Sealed at rest: no column of the row holds the secret, in any spelling.
    const { rows } = await pool().query(
      `SELECT row_to_json(w)::text AS text, legacy_secret, secret_ciphertext FROM site_webhooks w WHERE id = $1`,
      [hook.id],
    );
    expect(rows[0].legacy_secret).toBeNull();
    expect(rows[0].secret_ciphertext).toBeInstanceOf(Buffer);
    for (const spelling of [
      SECRET,
      Buffer.from(SECRET).toString('hex'),
      Buffer.from(SECRET).toString('base64'),
    ]) {
      expect(rows[0].text).not.toContain(spelling);
    }
    expect((rows[0].secret_ciphertext as Buffer).includes(Buffer.from(SECRET))).toBe(false);

    const listed = (await (await list(admin)).json()).items as WebhookDto[];
    expect(listed.map((w) => w.id)).toEqual([hook.id]);
    const site = await siteRoute(admin.request(`http://localhost/api/v1/sites/${siteId}`), {
      params: Promise.resolve({ id: siteId }),
    }).then(record);
    expect((await site.json()).webhooks).toBe(1);

    expect((await remove(admin, hook.id)).status).toBe(204);
    expect((await remove(admin, hook.id)).status).toBe(404);
    expect((await (await list(admin)).json()).items).toEqual([]);
  });

  it.each([
    [{ url: 'ftp://hooks.example/in', secret: SECRET }, /^url: must be http:\/\/ or https:\/\//],
    [{ url: '/relative/path', secret: SECRET }, /^url: must be an absolute/],
    [{ url: 'https://user:pw@hooks.example/in', secret: SECRET }, /^url: must not carry a user name/],
    [{ url: 'https://hooks.example/in', secret: 'short' }, /^secret: must be at least 16 characters/],
    [{ url: 'https://hooks.example/in' }, /^secret: /],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const res = await create(admin, body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(message);
  });

  it('are an admin’s only: 403 for reviewers and viewers on every route', async () => {
    const hook = (await (
      await create(admin, { url: 'https://hooks.example/x', secret: SECRET })
    ).json()) as WebhookDto;
    for (const caller of [reviewer, viewer]) {
      expect((await create(caller, { url: 'https://hooks.example/y', secret: SECRET })).status).toBe(403);
      expect((await list(caller)).status).toBe(403);
      expect((await deliveries(caller, hook.id)).status).toBe(403);
      expect((await remove(caller, hook.id)).status).toBe(403);
    }
    expect((await remove(admin, hook.id)).status).toBe(204);
  });

  it('list their deliveries newest first, a page at a time, and their last one', async () => {
    const hook = (await (
      await create(admin, { url: 'https://hooks.example/log', secret: SECRET })
    ).json()) as WebhookDto;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { rows } = await pool().query<{ id: string }>(
        `INSERT INTO webhook_deliveries (webhook_id, audit_id, event, body, status, attempts, attempt_log, response_status, error)
         VALUES ($1, NULL, 'run.completed', $2, $3, 1, $4, $5, $6) RETURNING id::text`,
        [
          hook.id,
          `{"n":${i}}`,
          i === 2 ? 'failed' : 'delivered',
          JSON.stringify([{ at: '2026-12-01T10:00:00.000Z', status: 500, error: 'HTTP 500', ms: 12 }]),
          500,
          'HTTP 500',
        ],
      );
      ids.push(rows[0]?.id ?? '');
    }
    const first = (await (await deliveries(admin, hook.id, '?limit=2')).json()) as DeliveryPage;
    expect(first.items.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.items[0]).toMatchObject({
      status: 'failed',
      event: 'run.completed',
      attempts: 1,
      responseStatus: 500,
      error: 'HTTP 500',
      attemptLog: [{ at: '2026-12-01T10:00:00.000Z', status: 500, error: 'HTTP 500', ms: 12 }],
    });
    expect(first.items[0]).not.toHaveProperty('body');
    const second = (await (
      await deliveries(admin, hook.id, `?limit=2&cursor=${first.nextCursor}`)
    ).json()) as DeliveryPage;
    expect(second).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    expect((await deliveries(admin, hook.id, '?cursor=abc')).status).toBe(400);
    expect((await deliveries(admin, hook.id, '?limit=0')).status).toBe(400);
    expect((await deliveries(admin, 2_000_000_000)).status).toBe(404);

    const [listed] = (await (await list(admin)).json()).items as WebhookDto[];
    // When it last moved: the failed one's last attempt.
    expect(listed?.lastDelivery).toEqual({ status: 'failed', at: '2026-12-01T10:00:00.000Z' });
  });

  it('page their log by number: delivery 13 before 7, every delivery on exactly one page', async () => {
    const hook = (await (
      await create(admin, { url: 'https://hooks.example/numbers', secret: SECRET })
    ).json()) as WebhookDto;
    // Ids whose text order differs from their number order ("13…" sorts before "7…" as text), far above
    // the sequence so no other test's delivery takes one.
    const offset = BigInt(Math.floor(Math.random() * 1e9));
    const ids = Array.from({ length: 13 }, (_, i) => String(BigInt(i + 1) * 10n ** 12n + offset));
    await pool().query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, body, status, attempts)
       SELECT id, $1, 'run.completed', '{}', 'delivered', 1 FROM unnest($2::bigint[]) AS id`,
      [hook.id, ids],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=5${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await (await deliveries(admin, hook.id, query)).json()) as DeliveryPage;
      expect(page.items.length).toBeLessThanOrEqual(5);
      seen.push(...page.items.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(seen.indexOf(ids[12] as string)).toBeLessThan(seen.indexOf(ids[6] as string));
    const [listed] = ((await (await list(admin)).json()).items as WebhookDto[]).filter(
      (w) => w.id === hook.id,
    );
    expect(listed?.lastDelivery?.status).toBe('delivered');
    expect((await remove(admin, hook.id)).status).toBe(204);
  });

  it('never put the secret in an answer', () => {
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((text) => text.includes(SECRET) || text.includes('secret":'))).toEqual([]);
  });
});
