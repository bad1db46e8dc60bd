// Reads of a site's schedules.
import 'server-only';
import { pool } from '@/lib/db/client';
import type { ScheduleDto } from '../schema';

interface ScheduleRow {
  id: number;
  site_id: string;
  cadence: ScheduleDto['cadence'];
  cron: string;
  timezone: string;
  enabled: boolean;
  from_audit_id: string | null;
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_audit_id: string | null;
  last_skip: string | null;
  created_by: string;
  created_at: Date;
}

export const SCHEDULE_COLUMNS = `id, site_id, cadence, cron, timezone, enabled, from_audit_id, next_run_at,
  last_run_at, last_audit_id, last_skip, created_by, created_at`;

export function toScheduleDto(row: ScheduleRow): ScheduleDto {
  return {
    id: row.id,
    siteId: row.site_id,
    cadence: row.cadence,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled,
    fromAuditId: row.from_audit_id,
    nextRunAt: row.next_run_at?.toISOString() ?? null,
    lastRunAt: row.last_run_at?.toISOString() ?? null,
    lastAuditId: row.last_audit_id,
    lastSkip: row.last_skip,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

/** The site's schedules, oldest first (the order they were made in). */
export async function listSchedules(siteId: string): Promise<ScheduleDto[]> {
  const { rows } = await pool().query<ScheduleRow>(
    `SELECT ${SCHEDULE_COLUMNS} FROM site_schedules WHERE site_id = $1 ORDER BY id`,
    [siteId],
  );
  return rows.map(toScheduleDto);
}

/** Whether `auditId` is one of the site's audits (a schedule may only repeat its own site's). */
export async function auditOfSite(siteId: string, auditId: string): Promise<boolean> {
  const { rows } = await pool().query('SELECT 1 FROM audits WHERE id = $1 AND site_id = $2', [
    auditId,
    siteId,
  ]);
  return rows.length > 0;
}
