import { describe, expect, it } from 'vitest';
import type { DecisionPreviewDto } from '@/lib/findings/schema';
import { bulkDecisionTitle } from './bulk-title';

function preview(byDecision: DecisionPreviewDto['byDecision'], willChange: number): DecisionPreviewDto {
  const all = byDecision.pending + byDecision.approved + byDecision.rejected;
  return { willChange, willSkip: 0, alreadySet: all - willChange, byDecision };
}

describe('bulkDecisionTitle', () => {
  it('counts the rows it changes against the matching rows, from one preview', () => {
    // The e2e case: 130 rows match, one was rejected and keeps its decision without the override.
    const oneRejected = preview({ pending: 129, approved: 0, rejected: 1 }, 129);
    expect(bulkDecisionTitle('Approve', 'matching', oneRejected, 130)).toBe(
      'Approve 129 of the 130 matching rows?',
    );
  });

  it('says "all" only when every matching row changes', () => {
    const allPending = preview({ pending: 130, approved: 0, rejected: 0 }, 130);
    expect(bulkDecisionTitle('Approve', 'matching', allPending, 130)).toBe('Approve all 130 matching rows?');
    expect(
      bulkDecisionTitle(
        'Approve',
        'confirmed or dead',
        preview({ pending: 4, approved: 0, rejected: 0 }, 4),
        4,
      ),
    ).toBe('Approve all 4 confirmed or dead rows?');
  });

  it('takes the preview’s count over the one the review showed when they differ', () => {
    // A row left the filter (someone else decided it) between the review's count and the preview.
    const moved = preview({ pending: 129, approved: 0, rejected: 0 }, 129);
    expect(bulkDecisionTitle('Reject', 'matching', moved, 130)).toBe('Reject all 129 matching rows?');
  });

  it('promises nothing while counting or when nothing changes', () => {
    expect(bulkDecisionTitle('Approve', 'matching', undefined, 130)).toBe('Approve the 130 matching rows?');
    const done = preview({ pending: 0, approved: 129, rejected: 1 }, 0);
    expect(bulkDecisionTitle('Approve', 'matching', done, 130)).toBe('Approve the 130 matching rows?');
    expect(
      bulkDecisionTitle('Reset', 'matching', preview({ pending: 0, approved: 1, rejected: 0 }, 1), 1),
    ).toBe('Reset the 1 matching row?');
  });
});
