// A site's schedules through the API: made by admins from daily, weekly or cron inputs (the cron in force
// and the next time answered), listed for viewers, paused and resumed, removed; bad input is a 400 naming
// the field.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertAudit, siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import type { ScheduleDto } from '@/lib/sites/schema';
import { type TestCaller, testCaller } from '@/lib/test-support/auth';
import { DELETE as deleteRoute, PATCH as patchRoute } from './[scheduleId]/route';
import { POST as createRoute, GET as listRoute } from './route';

let siteId = '';
let admin: TestCaller;
let viewer: TestCaller;
let reviewer: TestCaller;

const base = () => `http://localhost/api/v1/sites/${siteId}/schedules`;

function create(caller: TestCaller, body: unknown, site = siteId): Promise<Response> {
  return createRoute(
    caller.request(base(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: site }) },
  );
}

async function created(body: unknown): Promise<ScheduleDto> {
  const res = await create(admin, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as ScheduleDto;
}

function patch(caller: TestCaller, id: number | string, body: unknown): Promise<Response> {
  return patchRoute(
    caller.request(`${base()}/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: siteId, scheduleId: String(id) }) },
  );
}

async function list(caller: TestCaller): Promise<ScheduleDto[]> {
  const res = await listRoute(caller.request(base()), { params: Promise.resolve({ id: siteId }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: ScheduleDto[] }).items;
}

beforeAll(async () => {
  siteId = await siteIdForHost(`schedules-${randomUUID().slice(0, 8)}.example`);
  [admin, viewer, reviewer] = await Promise.all([
    testCaller('admin', 'Ada Admin'),
    testCaller('viewer'),
    testCaller('reviewer'),
  ]);
});

describe('creating schedules', () => {
  it('answers each cadence with the cron in force and its next time in the time zone', async () => {
    const before = Date.now();
    const daily = await created({ cadence: 'daily' });
    expect(daily).toMatchObject({
      siteId,
      cadence: 'daily',
      cron: '0 3 * * *',
      timezone: 'UTC',
      enabled: true,
      fromAuditId: null,
      lastRunAt: null,
      lastAuditId: null,
      lastSkip: null,
      createdBy: 'Ada Admin',
    });
    const next = new Date(daily.nextRunAt ?? 0);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime()).toBeLessThanOrEqual(before + 24 * 3600_000);
    expect(next.toISOString()).toMatch(/T03:00:00\.000Z$/);

    const weekly = await created({ cadence: 'weekly', at: '06:30', weekday: 5, timezone: 'Asia/Tokyo' });
    expect(weekly).toMatchObject({ cron: '30 6 * * 5', timezone: 'Asia/Tokyo' });
    // Friday 06:30 in Tokyo is Thursday 21:30 UTC.
    const weeklyNext = new Date(weekly.nextRunAt ?? 0);
    expect([weeklyNext.getUTCDay(), weeklyNext.getUTCHours(), weeklyNext.getUTCMinutes()]).toEqual([
      4, 21, 30,
    ]);

    const cron = await created({ cadence: 'cron', cron: '*/10 * * * *', enabled: false });
    expect(cron).toMatchObject({ cron: '*/10 * * * *', enabled: false, nextRunAt: null });
  });

  it('repeats a given audit of the site, not one of another site', async () => {
    const auditId = randomUUID();
    await insertAudit(auditId, 'mine', { normalization: 'exact' }, [], { siteId });
    expect(await created({ cadence: 'daily', fromAuditId: auditId })).toMatchObject({ fromAuditId: auditId });
    const foreign = randomUUID();
    await insertAudit(foreign, 'theirs', { normalization: 'exact' }, []);
    const res = await create(admin, { cadence: 'daily', fromAuditId: foreign });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/^fromAuditId: /);
  });

  it.each([
    [{ cadence: 'hourly' }, /^cadence: /],
    [{ cadence: 'daily', at: '3am' }, /^at: must be a time of day as HH:MM/],
    [{ cadence: 'weekly', weekday: 9 }, /^weekday: /],
    [{ cadence: 'cron', cron: '* * * * * *' }, /^cron: needs exactly five fields/],
    [{ cadence: 'cron', cron: 'every day' }, /^cron: needs exactly five fields/],
    [{ cadence: 'cron', cron: '0 25 * * *' }, /^cron: "0 25 \* \* \*" is not a valid cron expression/],
    [{ cadence: 'daily', timezone: 'Europe/Atlantis' }, /^timezone: "Europe\/Atlantis" is not an IANA/],
    [{ cadence: 'daily', extra: 1 }, /Unrecognized key/],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const res = await create(admin, body);
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(message);
  });

  it('is for admins only, and 404 for a site that does not exist', async () => {
    expect((await create(viewer, { cadence: 'daily' })).status).toBe(403);
    expect((await create(reviewer, { cadence: 'daily' })).status).toBe(403);
    expect((await create(admin, { cadence: 'daily' }, randomUUID())).status).toBe(404);
  });
});

describe('managing schedules', () => {
  it('lists them for viewers, pauses and resumes them, and removes them', async () => {
    const schedule = await created({ cadence: 'daily', at: '01:00' });
    expect((await list(viewer)).map((s) => s.id)).toContain(schedule.id);

    expect((await patch(reviewer, schedule.id, { enabled: false })).status).toBe(403);
    const paused = await patch(admin, schedule.id, { enabled: false });
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ id: schedule.id, enabled: false, nextRunAt: null });
    const resumed = (await (await patch(admin, schedule.id, { enabled: true })).json()) as ScheduleDto;
    expect(resumed).toMatchObject({ enabled: true, nextRunAt: schedule.nextRunAt });
    expect((await patch(admin, schedule.id, { enabled: 'yes' })).status).toBe(400);
    expect((await patch(admin, 2_000_000_000, { enabled: true })).status).toBe(404);
    expect((await patch(admin, 'x1', { enabled: true })).status).toBe(404);

    const remove = (caller: TestCaller) =>
      deleteRoute(caller.request(`${base()}/${schedule.id}`, { method: 'DELETE' }), {
        params: Promise.resolve({ id: siteId, scheduleId: String(schedule.id) }),
      });
    expect((await remove(viewer)).status).toBe(403);
    expect((await remove(admin)).status).toBe(204);
    expect((await remove(admin)).status).toBe(404);
    expect((await list(viewer)).map((s) => s.id)).not.toContain(schedule.id);
    const { rows } = await pool().query('SELECT 1 FROM site_schedules WHERE id = $1', [schedule.id]);
    expect(rows).toEqual([]);
  });
});
