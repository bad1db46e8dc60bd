import { describe, expect, it } from 'vitest';
import { cadenceText } from './schedule-text';

describe('cadenceText', () => {
  it('reads daily and weekly crons back as their cadence, times padded', () => {
    expect(cadenceText({ cadence: 'daily', cron: '0 6 * * *' })).toBe('Daily at 06:00');
    expect(cadenceText({ cadence: 'daily', cron: '30 23 * * *' })).toBe('Daily at 23:30');
    expect(cadenceText({ cadence: 'weekly', cron: '5 7 * * 1' })).toBe('Weekly on Monday at 07:05');
    expect(cadenceText({ cadence: 'weekly', cron: '0 0 * * 0' })).toBe('Weekly on Sunday at 00:00');
  });

  it('shows a cron schedule, or a cron that does not read as its cadence, as the expression', () => {
    expect(cadenceText({ cadence: 'cron', cron: '* * * * *' })).toBe('Cron * * * * *');
    expect(cadenceText({ cadence: 'cron', cron: '0 6 * * *' })).toBe('Cron 0 6 * * *');
    expect(cadenceText({ cadence: 'daily', cron: '*/5 6 * * *' })).toBe('Cron */5 6 * * *');
    expect(cadenceText({ cadence: 'daily', cron: '0 6 1 * *' })).toBe('Cron 0 6 1 * *');
    expect(cadenceText({ cadence: 'weekly', cron: '0 6 * * 1-5' })).toBe('Cron 0 6 * * 1-5');
  });
});
