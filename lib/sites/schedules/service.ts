// A site's schedules on behalf of an admin: what was asked is checked here (cadence, time, cron, time zone,
// the audit to repeat) and stored with the cron expression in force and its next due time.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { siteExists } from '../data';
import { type ScheduleDto, type TScheduleInput, ZScheduleInput, ZSchedulePatch } from '../schema';
import { nextRunAt, scheduleCron, scheduleTimezone } from './cron';
import { auditOfSite } from './data';
import { insertSchedule, setScheduleEnabled } from './mutations';

const SERIAL = /^[0-9]{1,10}$/;

/** A schedule's or webhook's number from the path (a SERIAL, from 1): anything else cannot exist, a 404. */
export function serialIdParam(value: string | undefined, what: string): number {
  const n = value !== undefined && SERIAL.test(value) ? Number(value) : 0;
  if (n < 1 || n > 2_147_483_647) throw new AppError('not_found', `No such ${what}`);
  return n;
}

export async function createSchedule(siteId: string, body: unknown, createdBy: string): Promise<ScheduleDto> {
  const input: TScheduleInput = ZScheduleInput.parse(body);
  const cron = scheduleCron(input);
  const timezone = scheduleTimezone(input.timezone);
  if (!(await siteExists(siteId))) throw new AppError('not_found', 'No such site');
  if (input.fromAuditId && !(await auditOfSite(siteId, input.fromAuditId))) {
    throw new AppError('validation_failed', 'fromAuditId: not an audit of this site');
  }
  const enabled = input.enabled ?? true;
  return insertSchedule({
    siteId,
    cadence: input.cadence,
    cron,
    timezone,
    enabled,
    fromAuditId: input.fromAuditId ?? null,
    nextRunAt: enabled ? nextRunAt(cron, timezone) : null,
    createdBy,
  });
}

export async function patchSchedule(siteId: string, id: number, body: unknown): Promise<ScheduleDto> {
  const { enabled } = ZSchedulePatch.parse(body);
  const updated = await setScheduleEnabled(siteId, id, enabled, (cron, timezone) =>
    nextRunAt(cron, timezone),
  );
  if (!updated) throw new AppError('not_found', 'No such schedule');
  return updated;
}
