// A schedule's cron expression and next due time from what an admin asked for (daily, weekly or a cron
// expression, in an IANA time zone). Pure: the routes validate with it and the scheduler's tick advances with it.
import cronParser from 'cron-parser';
import { AppError } from '@/lib/core/errors';
import type { TScheduleInput } from '../schema';

/** Monday: a weekly schedule without a weekday. */
const DEFAULT_WEEKDAY = 1;
const DEFAULT_AT = '03:00';

/** The IANA name `timezone` stands for (UTC when absent); a 400 naming the field when Intl does not know it. */
export function scheduleTimezone(timezone: string | undefined): string {
  if (!timezone) return 'UTC';
  try {
    // Kept as given: Intl would canonicalize to ICU's names (Asia/Kolkata becomes Asia/Calcutta).
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    // cron-parser reads zones through luxon: a name it cannot place must be refused here, not at the tick.
    if (Number.isNaN(nextRunAt('0 0 * * *', timezone).getTime())) throw new RangeError(timezone);
    return timezone;
  } catch {
    throw new AppError(
      'validation_failed',
      `timezone: "${timezone.slice(0, 100)}" is not an IANA time zone name (e.g. Europe/Paris, UTC)`,
    );
  }
}

function refuse(field: string, message: string): never {
  throw new AppError('validation_failed', `${field}: ${message}`);
}

/** The five-field cron expression a schedule input stands for; a 400 naming the field that is wrong. */
export function scheduleCron(input: TScheduleInput): string {
  if (input.cadence !== 'cron' && input.cron !== undefined) refuse('cron', 'only for cadence "cron"');
  if (input.cadence !== 'weekly' && input.weekday !== undefined)
    refuse('weekday', 'only for cadence "weekly"');
  if (input.cadence === 'cron') {
    if (input.at !== undefined) refuse('at', 'not for cadence "cron" (the expression says when)');
    if (!input.cron)
      refuse('cron', 'required for cadence "cron" (five fields: minute hour day month weekday)');
    return checkedCron(input.cron);
  }
  const [hour, minute] = (input.at ?? DEFAULT_AT).split(':').map(Number);
  const time = `${minute} ${hour}`;
  return input.cadence === 'daily' ? `${time} * * *` : `${time} * * ${input.weekday ?? DEFAULT_WEEKDAY}`;
}

/** A cron expression of exactly five fields that cron-parser reads. Six fields (seconds) or an alias are
 * refused: with five fields nothing fires more than once a minute, which is the scheduler's own tick. */
function checkedCron(expression: string): string {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    refuse(
      'cron',
      `needs exactly five fields (minute hour day-of-month month day-of-week); "${expression.slice(0, 100)}" has ${fields.length}`,
    );
  }
  const normalized = fields.join(' ');
  try {
    // next(): some expressions parse but never fire (the 31st of April or June), found only by looking.
    cronParser.parseExpression(normalized, { tz: 'UTC' }).next();
  } catch (error) {
    refuse(
      'cron',
      `"${normalized.slice(0, 100)}" is not a valid cron expression (${(error as Error).message})`,
    );
  }
  return normalized;
}

/** The first time after `after` that `cron` fires in `timezone`. */
export function nextRunAt(cron: string, timezone: string, after: Date = new Date()): Date {
  return cronParser.parseExpression(cron, { tz: timezone, currentDate: after }).next().toDate();
}
