import { describe, expect, it } from 'vitest';
import {
  latestItemsSql,
  VERDICT_FILTERS,
  verdictConditionSql,
  verdictsOf,
} from '@/lib/findings/evidence/live';
import { VERDICTS } from './stats';

describe('the verdict filter', () => {
  it('takes every verdict, confirming and unchecked', () => {
    expect(VERDICT_FILTERS).toEqual([...VERDICTS, 'confirming', 'unchecked']);
  });

  it('stands for one verdict, confirmed or dead, or no finished check', () => {
    expect(verdictsOf('changed')).toEqual(['changed']);
    expect(verdictsOf('confirming')).toEqual(['confirmed', 'dead']);
    expect(verdictsOf('unchecked')).toBeNull();
  });

  it('reads only finished runs, newest check first, and an anti-join for unchecked', () => {
    const sql = latestItemsSql('$1', '$2::int[]');
    expect(sql).toContain(`r.status IN ('succeeded', 'partial')`);
    expect(sql).toContain('ORDER BY i.finding_id, i.checked_at DESC');
    expect(sql).toContain('i.finding_id = ANY($2::int[])');
    expect(verdictConditionSql('$1', null)).toMatch(/^f\.id NOT IN \(/);
    expect(verdictConditionSql('$1', ['confirmed', 'dead'])).toContain(`l.verdict IN ('confirmed', 'dead')`);
  });
});
