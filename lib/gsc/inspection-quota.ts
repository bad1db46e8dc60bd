// Google counts URL Inspection quota per property and day in Pacific time (2,000 a day, 600 a minute per
// property: developers.google.com/webmaster-tools/limits). Pure: the day a call counts against, and when
// the next day's quota begins.

const PACIFIC = 'America/Los_Angeles';

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: PACIFIC,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const timeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: PACIFIC,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The Pacific day of `at` as YYYY-MM-DD (gsc_quota_usage.day). */
export function pacificDay(at: Date): string {
  return dayFormat.format(at);
}

/** The first instant of the Pacific day after `at` (PST is UTC−8, PDT UTC−7; the change happens at 2 am,
 * so midnight is always one of the two). */
export function nextPacificMidnight(at: Date): Date {
  const [y, m, d] = pacificDay(at).split('-').map(Number) as [number, number, number];
  for (const offset of [7, 8]) {
    const candidate = new Date(Date.UTC(y, m - 1, d + 1, offset));
    if (timeFormat.format(candidate) === '00:00') return candidate;
  }
  throw new Error(`no Pacific midnight after ${at.toISOString()}`);
}
