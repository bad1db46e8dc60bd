// A schedule's cron expression and next time from daily, weekly and cron inputs, in a time zone; what is
// refused names its field.
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { ZScheduleInput } from '../schema';
import { nextRunAt, scheduleCron, scheduleTimezone } from './cron';

const cronOf = (input: unknown) => scheduleCron(ZScheduleInput.parse(input));

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected a refusal');
}

describe('scheduleCron', () => {
  it('writes daily and weekly as cron expressions, 03:00 and Monday by default', () => {
    expect(cronOf({ cadence: 'daily' })).toBe('0 3 * * *');
    expect(cronOf({ cadence: 'daily', at: '22:15' })).toBe('15 22 * * *');
    expect(cronOf({ cadence: 'weekly' })).toBe('0 3 * * 1');
    expect(cronOf({ cadence: 'weekly', at: '07:05', weekday: 0 })).toBe('5 7 * * 0');
  });

  it('takes a five-field expression as given, its spaces made single', () => {
    expect(cronOf({ cadence: 'cron', cron: ' */15  9-17 * * 1-5 ' })).toBe('*/15 9-17 * * 1-5');
  });

  it('refuses what is wrong, naming the field', () => {
    expect(refusal(() => cronOf({ cadence: 'cron' }))).toMatch(/^cron: required/);
    expect(refusal(() => cronOf({ cadence: 'cron', cron: '* * * * * *' }))).toMatch(
      /^cron: .*five fields.*has 6/,
    );
    expect(refusal(() => cronOf({ cadence: 'cron', cron: '@daily' }))).toMatch(/^cron: .*five fields/);
    expect(refusal(() => cronOf({ cadence: 'cron', cron: '61 * * * *' }))).toMatch(
      /^cron: "61 \* \* \* \*" is not a valid cron expression \(.*0-59/,
    );
    expect(refusal(() => cronOf({ cadence: 'cron', cron: '0 0 31 2 *' }))).toMatch(/^cron: /);
    expect(refusal(() => cronOf({ cadence: 'cron', cron: '0 0 31 4,6 *' }))).toMatch(/^cron: .*loop limit/);
    expect(refusal(() => cronOf({ cadence: 'daily', cron: '0 3 * * *' }))).toMatch(/^cron: only for cadence/);
    expect(refusal(() => cronOf({ cadence: 'daily', weekday: 2 }))).toMatch(/^weekday: only for cadence/);
    expect(refusal(() => cronOf({ cadence: 'cron', cron: '0 3 * * *', at: '03:00' }))).toMatch(/^at: /);
    // The shape itself is zod's, which names the field too.
    expect(ZScheduleInput.safeParse({ cadence: 'daily', at: '24:00' }).error?.issues[0]?.path).toEqual([
      'at',
    ]);
    expect(ZScheduleInput.safeParse({ cadence: 'weekly', weekday: 7 }).error?.issues[0]?.path).toEqual([
      'weekday',
    ]);
  });
});

describe('scheduleTimezone', () => {
  it('is UTC by default and takes IANA names', () => {
    expect(scheduleTimezone(undefined)).toBe('UTC');
    expect(scheduleTimezone('Europe/Paris')).toBe('Europe/Paris');
    // As given, not as ICU spells it (Asia/Calcutta).
    expect(scheduleTimezone('Asia/Kolkata')).toBe('Asia/Kolkata');
  });

  it('refuses a name Intl does not know, naming the field', () => {
    expect(refusal(() => scheduleTimezone('Mars/Olympus_Mons'))).toMatch(
      /^timezone: "Mars\/Olympus_Mons" is not/,
    );
    expect(refusal(() => scheduleTimezone('+05:00'))).toMatch(/^timezone: /);
  });
});

describe('nextRunAt', () => {
  // Tuesday 1 December 2026, 10:00 UTC.
  const tuesday = new Date('2026-12-01T10:00:00Z');

  it('is the next time the expression fires after the given time, in UTC', () => {
    expect(nextRunAt('0 3 * * *', 'UTC', tuesday).toISOString()).toBe('2026-12-02T03:00:00.000Z');
    expect(nextRunAt('30 10 * * *', 'UTC', tuesday).toISOString()).toBe('2026-12-01T10:30:00.000Z');
  });

  it('reads the time of day in the schedule’s time zone', () => {
    // 03:00 in Paris is 02:00 UTC in winter; Monday 7 December is the next Monday.
    expect(nextRunAt('0 3 * * 1', 'Europe/Paris', tuesday).toISOString()).toBe('2026-12-07T02:00:00.000Z');
    // 03:00 in New York is 08:00 UTC in winter, and 07:00 UTC in summer.
    expect(nextRunAt('0 3 * * *', 'America/New_York', tuesday).toISOString()).toBe(
      '2026-12-02T08:00:00.000Z',
    );
    expect(nextRunAt('0 3 * * *', 'America/New_York', new Date('2026-07-01T10:00:00Z')).toISOString()).toBe(
      '2026-07-02T07:00:00.000Z',
    );
  });
});
