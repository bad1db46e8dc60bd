// The scheduler's tick: a due schedule starts a run of its site (trigger 'schedule', its schedule_id), a
// run of the site still going makes it skip (saying why), two ticks at once start one due time once, and
// a schedule without an audit to repeat says so. The ticks run at a time far in the future, so the ticks
// of workers other test files start never see these schedules due.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { insertAudit, siteIdForHost } from '@/lib/audits/mutations';
import { pool } from '@/lib/db/client';
import { stopBoss } from '@/lib/queue/queue';
import { nextRunAt } from '@/lib/sites/schedules/cron';
import { tickSchedules } from './schedule-tick';

afterAll(() => stopBoss());

const DUE = new Date('2100-01-04T03:00:00Z');
const TICK = new Date('2100-01-04T03:00:20Z');

/** A site with one finished audit of a sitemap URL (what a schedule repeats). */
async function siteWithAudit(status = 'succeeded'): Promise<{ siteId: string; auditId: string }> {
  const host = `sched-${randomUUID().slice(0, 8)}.example`;
  const siteId = await siteIdForHost(host);
  const auditId = randomUUID();
  await insertAudit(auditId, `${host} — 2026-12-01 10:00 UTC`, { normalization: 'exact' }, [
    { role: 'sitemap', kind: 'url', url: `https://${host}/sitemap.xml` },
  ]);
  await pool().query(`UPDATE audits SET site_id = $2, status = $3::"RunStatus" WHERE id = $1`, [
    auditId,
    siteId,
    status,
  ]);
  return { siteId, auditId };
}

async function dueSchedule(siteId: string, fromAuditId: string | null = null): Promise<number> {
  const { rows } = await pool().query<{ id: number }>(
    `INSERT INTO site_schedules (site_id, cadence, cron, timezone, from_audit_id, next_run_at, created_by)
     VALUES ($1, 'daily', '0 3 * * *', 'UTC', $2, $3, 'test') RETURNING id`,
    [siteId, fromAuditId, DUE],
  );
  return rows[0]?.id ?? 0;
}

async function scheduleRow(id: number) {
  const { rows } = await pool().query(
    'SELECT next_run_at, last_run_at, last_audit_id, last_skip FROM site_schedules WHERE id = $1',
    [id],
  );
  return rows[0];
}

async function runsOfSchedule(id: number) {
  const { rows } = await pool().query(
    'SELECT id, trigger, schedule_id, rerun_of, site_id, name FROM audits WHERE schedule_id = $1',
    [id],
  );
  return rows;
}

describe('the schedules tick', () => {
  it('starts a run of a due schedule and moves it to its next time', async () => {
    const { siteId, auditId } = await siteWithAudit();
    const id = await dueSchedule(siteId);

    const outcomes = (await tickSchedules(TICK)).filter((o) => o.scheduleId === id);
    expect(outcomes).toEqual([{ scheduleId: id, siteId, auditId: expect.any(String), skipped: null }]);
    const runs = await runsOfSchedule(id);
    expect(runs).toEqual([
      {
        id: outcomes[0]?.auditId,
        trigger: 'schedule',
        schedule_id: id,
        rerun_of: auditId,
        site_id: siteId,
        name: expect.stringMatching(/ \(scheduled\)$/),
      },
    ]);
    const row = await scheduleRow(id);
    expect(row.next_run_at.toISOString()).toBe('2100-01-05T03:00:00.000Z');
    expect(row.next_run_at).toEqual(nextRunAt('0 3 * * *', 'UTC', TICK));
    expect(row).toMatchObject({ last_run_at: TICK, last_audit_id: runs[0]?.id, last_skip: null });

    // Not due again until its next time.
    expect((await tickSchedules(TICK)).filter((o) => o.scheduleId === id)).toEqual([]);
  });

  it('skips, saying why, while a run of the site is still going', async () => {
    const { siteId } = await siteWithAudit();
    // A run of the site that nothing runs (no job): it stays "running" for the whole test.
    const { auditId: going } = await siteWithAudit();
    await pool().query(`UPDATE audits SET site_id = $2, status = 'running' WHERE id = $1`, [going, siteId]);
    const id = await dueSchedule(siteId);

    const [outcome] = (await tickSchedules(TICK)).filter((o) => o.scheduleId === id);
    expect(outcome?.auditId).toBeNull();
    expect(outcome?.skipped).toMatch(new RegExp(`still going .*${going}.*one run at a time per site`));
    expect(await runsOfSchedule(id)).toEqual([]);
    const row = await scheduleRow(id);
    expect(row).toMatchObject({ last_run_at: TICK, last_audit_id: null, last_skip: outcome?.skipped });
    expect(row.next_run_at.toISOString()).toBe('2100-01-05T03:00:00.000Z');

    // Once that run ended, the next due time starts one and clears the skip.
    await pool().query(`UPDATE audits SET status = 'failed' WHERE id = $1`, [going]);
    const later = new Date('2100-01-05T03:00:05Z');
    const [next] = (await tickSchedules(later)).filter((o) => o.scheduleId === id);
    expect(next?.auditId).toEqual(expect.any(String));
    expect(await scheduleRow(id)).toMatchObject({ last_skip: null, last_audit_id: next?.auditId });
  });

  it('starts one due time once under two ticks at once', async () => {
    const { siteId } = await siteWithAudit();
    const id = await dueSchedule(siteId);

    const [a, b] = await Promise.all([tickSchedules(TICK), tickSchedules(TICK)]);
    const mine = [...a, ...b].filter((o) => o.scheduleId === id);
    // The other tick never saw it (claimed under SKIP LOCKED, then no longer due): no skip recorded either.
    expect(mine).toHaveLength(1);
    expect(mine[0]?.skipped).toBeNull();
    expect(await runsOfSchedule(id)).toHaveLength(1);
  });

  it('passes over a schedule another tick is claiming, without waiting for it', async () => {
    const { siteId } = await siteWithAudit();
    const id = await dueSchedule(siteId);
    // Another tick, mid-claim: it holds the schedule's row.
    const other = await pool().connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT id FROM site_schedules WHERE id = $1 FOR UPDATE', [id]);
      const passed = await Promise.race([
        tickSchedules(TICK),
        new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 3000)),
      ]);
      expect(passed === 'blocked' ? passed : passed.filter((o) => o.scheduleId === id)).toEqual([]);
      expect(await runsOfSchedule(id)).toEqual([]);
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
    // Released without a claim: the next tick takes it.
    expect((await tickSchedules(TICK)).filter((o) => o.scheduleId === id)).toHaveLength(1);
  });

  it('repeats the site’s newest audit when its own is gone, and says so when there is none', async () => {
    const { siteId, auditId } = await siteWithAudit();
    const gone = randomUUID();
    await insertAudit(gone, 'gone', { normalization: 'exact' }, []);
    await pool().query(`UPDATE audits SET site_id = $2, status = 'succeeded' WHERE id = $1`, [gone, siteId]);
    // The gone audit is older: the newest is auditId.
    await pool().query(`UPDATE audits SET created_at = now() - interval '1 day' WHERE id = $1`, [gone]);
    const id = await dueSchedule(siteId, gone);
    await pool().query('DELETE FROM audits WHERE id = $1', [gone]);

    const [outcome] = (await tickSchedules(TICK)).filter((o) => o.scheduleId === id);
    expect((await runsOfSchedule(id))[0]).toMatchObject({ id: outcome?.auditId, rerun_of: auditId });

    const empty = await siteIdForHost(`empty-${randomUUID().slice(0, 8)}.example`);
    const none = await dueSchedule(empty);
    const [skipped] = (await tickSchedules(TICK)).filter((o) => o.scheduleId === none);
    expect(skipped?.skipped).toBe('The site has no audit to run again');
    expect((await scheduleRow(none)).last_skip).toBe('The site has no audit to run again');
  });
});
