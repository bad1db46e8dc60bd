// The audit's share links through the API: every link stays listed, live, expired or revoked (with when and
// by whom), the live ones first and newest first within each group; revoking twice keeps the first record.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit } from '@/lib/audits/mutations';
import type { ShareDto, ShareListDto } from '@/lib/auth/types';
import { pool } from '@/lib/db/client';
import { openShare } from '@/lib/report/shared';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { DELETE as revokeRoute } from '../../../shares/[id]/route';
import { POST as createRoute, GET as listRoute } from './route';

let auditId = '';
let rita: TestCaller;
let sam: TestCaller;

const params = (id: string) => ({ params: Promise.resolve({ id }) });

async function create(
  caller: TestCaller,
  expiresAt: string | null = null,
): Promise<{ id: string; url: string }> {
  const res = await createRoute(
    caller.request(`http://localhost/api/v1/audits/${auditId}/shares`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ expiresAt }),
    }),
    params(auditId),
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

async function revoke(caller: TestCaller, id: string): Promise<number> {
  const res = await revokeRoute(
    caller.request(`http://localhost/api/v1/shares/${id}`, { method: 'DELETE' }),
    params(id),
  );
  return res.status;
}

async function list(caller: TestCaller): Promise<ShareDto[]> {
  const res = await listRoute(
    caller.request(`http://localhost/api/v1/audits/${auditId}/shares`),
    params(auditId),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as ShareListDto).items;
}

/** Moves a link's creation time back, so the order does not hang on the milliseconds between inserts. */
async function createdAgo(id: string, minutes: number): Promise<void> {
  await pool().query(`UPDATE shares SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [
    id,
    minutes,
  ]);
}

beforeAll(async () => {
  auditId = randomUUID();
  await insertAudit(auditId, 'Shares audit', { normalization: 'exact' }, []);
  [rita, sam] = await Promise.all([
    testCaller('reviewer', 'Rita Reviewer'),
    testCaller('reviewer', 'Sam Second'),
  ]);
});

describe('the share list', () => {
  it('keeps revoked and expired links listed as such, the live ones first', async () => {
    const oldLive = await create(rita);
    const revoked = await create(rita);
    const expired = await create(sam, new Date(Date.now() + 3600_000).toISOString());
    const newLive = await create(sam);
    await createdAgo(oldLive.id, 40);
    await createdAgo(revoked.id, 30);
    await createdAgo(expired.id, 20);
    await createdAgo(newLive.id, 10);
    await pool().query("UPDATE shares SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      expired.id,
    ]);

    expect(await revoke(sam, revoked.id)).toBe(204);
    // A second revocation (by someone else) changes nothing: the record keeps who took it back first.
    const first = (await list(rita)).find((s) => s.id === revoked.id);
    expect(await revoke(rita, revoked.id)).toBe(204);

    const items = await list(rita);
    expect(items.map((s) => [s.id, s.status])).toEqual([
      [newLive.id, 'active'],
      [oldLive.id, 'active'],
      [expired.id, 'expired'],
      [revoked.id, 'revoked'],
    ]);
    const gone = items.find((s) => s.id === revoked.id);
    expect(gone).toMatchObject({ createdBy: 'Rita Reviewer', revokedBy: 'Sam Second' });
    expect(gone?.revokedAt).toBe(first?.revokedAt);
    expect(new Date(gone?.revokedAt ?? 0).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const lapsed = items.find((s) => s.id === expired.id);
    expect(lapsed).toMatchObject({ createdBy: 'Sam Second', revokedBy: null, revokedAt: null });
    expect(new Date(lapsed?.expiresAt ?? 0).getTime()).toBeLessThan(Date.now());
    // The token is only ever in the creation's answer.
    expect(JSON.stringify(items)).not.toContain('sar_');
  });

  it('opens the report only through the active links', async () => {
    const live = await create(rita);
    const token = live.url.split('/r/')[1] ?? '';
    expect((await openShare(token))?.audit.id).toBe(auditId);
    expect(await revoke(rita, live.id)).toBe(204);
    expect(await openShare(token)).toBeNull();
    expect((await list(rita)).find((s) => s.id === live.id)).toMatchObject({
      status: 'revoked',
      revokedBy: 'Rita Reviewer',
    });
  });

  it('answers 404 to revoking a link that does not exist', async () => {
    expect(await revoke(rita, randomUUID())).toBe(404);
  });
});
