import { describe, expect, it } from 'vitest';
import { HOSTILE_NEXT as HOSTILE } from '@/lib/test-support/hostile-next';
import { safeNextPath } from './next-path';

describe('safeNextPath', () => {
  it.each(HOSTILE)('sends %j to /', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });

  it('keeps same-origin paths with their query and fragment', () => {
    expect(safeNextPath('/audits/3?tab=review#x')).toBe('/audits/3?tab=review#x');
    expect(safeNextPath('/')).toBe('/');
    expect(safeNextPath('/users')).toBe('/users');
    expect(safeNextPath('/audits?q=a%20b&list=prune')).toBe('/audits?q=a%20b&list=prune');
    expect(safeNextPath('/r/sar_abc-DEF_123')).toBe('/r/sar_abc-DEF_123');
  });

  it('resolves dot segments that stay on our origin', () => {
    expect(safeNextPath('/audits/../users')).toBe('/users');
  });

  it('ignores what is not a string, or too long to be ours', () => {
    expect(safeNextPath(`/${'a'.repeat(3000)}`)).toBe('/');
    expect(safeNextPath(undefined)).toBe('/');
    expect(safeNextPath(['/a', '/b'])).toBe('/');
    expect(safeNextPath(42)).toBe('/');
  });
});
