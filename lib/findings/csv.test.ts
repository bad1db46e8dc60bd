import { describe, expect, it } from 'vitest';
import { exportFileName } from './csv';

describe('exportFileName', () => {
  it('names the audit, list, decision and date', () => {
    expect(
      exportFileName('Shop — November!', 'prune', 'approved', 'csv', new Date('2026-11-30T10:00:00Z')),
    ).toBe('shop-november-prune-approved-2026-11-30.csv');
    expect(exportFileName('***', 'add', 'all', 'jsonl', new Date('2026-11-30T10:00:00Z'))).toBe(
      'audit-add-all-2026-11-30.jsonl',
    );
  });
});
