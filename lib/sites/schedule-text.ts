// A schedule in words for the site page (pure): its stored cron read back as the cadence it was made with.
import type { ScheduleDto } from './schema';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "Daily at 06:30", "Weekly on Monday at 06:30", else "Cron <expression>" (also for a daily or weekly
 * schedule whose cron does not read as one, rather than a wrong time). */
export function cadenceText(schedule: Pick<ScheduleDto, 'cadence' | 'cron'>): string {
  const [minute = '', hour = '', day, month, weekday = ''] = schedule.cron.trim().split(/\s+/);
  const isPlain = /^\d{1,2}$/.test(minute) && /^\d{1,2}$/.test(hour) && day === '*' && month === '*';
  const at = isPlain ? `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}` : null;
  if (schedule.cadence === 'daily' && at && weekday === '*') return `Daily at ${at}`;
  const dayName = /^[0-6]$/.test(weekday) ? WEEKDAYS[Number(weekday)] : undefined;
  if (schedule.cadence === 'weekly' && at && dayName) return `Weekly on ${dayName} at ${at}`;
  return `Cron ${schedule.cron}`;
}
