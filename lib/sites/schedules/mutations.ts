// Writes of a site's schedules (the scheduler's own writes are in lib/audit-runs/jobs/schedule-tick.ts).
import 'server-only';
import { pool } from '@/lib/db/client';
import type { ScheduleDto } from '../schema';
import { SCHEDULE_COLUMNS, toScheduleDto } from './data';

export interface NewSchedule {
  siteId: string;
  cadence: ScheduleDto['cadence'];
  cron: string;
  timezone: string;
  enabled: boolean;
  fromAuditId: string | null;
  nextRunAt: Date | null;
  createdBy: string;
}

export async function insertSchedule(schedule: NewSchedule): Promise<ScheduleDto> {
  const { rows } = await pool().query(
    `INSERT INTO site_schedules (site_id, cadence, cron, timezone, enabled, from_audit_id, next_run_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${SCHEDULE_COLUMNS}`,
    [
      schedule.siteId,
      schedule.cadence,
      schedule.cron,
      schedule.timezone,
      schedule.enabled,
      schedule.fromAuditId,
      schedule.nextRunAt,
      schedule.createdBy,
    ],
  );
  return toScheduleDto(rows[0]);
}

/** Turns a schedule on (due next at `nextRunAt`) or off (not due at all); null when there is no such one. */
export async function setScheduleEnabled(
  siteId: string,
  id: number,
  enabled: boolean,
  nextRunAt: (cron: string, timezone: string) => Date,
): Promise<ScheduleDto | null> {
  const { rows } = await pool().query<{ cron: string; timezone: string }>(
    'SELECT cron, timezone FROM site_schedules WHERE site_id = $1 AND id = $2',
    [siteId, id],
  );
  const current = rows[0];
  if (!current) return null;
  // Turned on again, it waits for its next time from now: the times it missed while off are not made up.
  const next = enabled ? nextRunAt(current.cron, current.timezone) : null;
  const updated = await pool().query(
    `UPDATE site_schedules SET enabled = $3, next_run_at = $4 WHERE site_id = $1 AND id = $2
     RETURNING ${SCHEDULE_COLUMNS}`,
    [siteId, id, enabled, next],
  );
  return updated.rows[0] ? toScheduleDto(updated.rows[0]) : null;
}

export async function deleteSchedule(siteId: string, id: number): Promise<boolean> {
  const { rowCount } = await pool().query('DELETE FROM site_schedules WHERE site_id = $1 AND id = $2', [
    siteId,
    id,
  ]);
  return rowCount === 1;
}
