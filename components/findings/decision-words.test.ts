import { describe, expect, it } from 'vitest';
import type { Decision } from '@/lib/findings/schema';
import { previewOf } from '@/lib/review/decision-rule';
import { previewSentence, resultSentence } from './decision-words';

// The server's own rule turns counts per decision into the preview the dialog reads.
const preview = (byDecision: Record<Decision, number>, decision: Decision, override: boolean) =>
  previewOf(byDecision, decision, !override);

describe('previewSentence', () => {
  it('says how many pending rows change and which decided rows stay', () => {
    const p = preview({ pending: 980, approved: 0, rejected: 1 }, 'approved', false);
    expect(previewSentence(p, 'approved', false)).toBe(
      '980 pending rows will be approved; 1 rejected row stays rejected.',
    );
  });

  it('with override, counts the decided rows among the changes', () => {
    const p = preview({ pending: 980, approved: 0, rejected: 1 }, 'approved', true);
    expect(previewSentence(p, 'approved', true)).toBe('981 rows will be approved (980 pending, 1 rejected).');
  });

  it('names rows that already have the decision', () => {
    const p = preview({ pending: 2, approved: 3, rejected: 0 }, 'approved', false);
    expect(previewSentence(p, 'approved', false)).toBe(
      '2 pending rows will be approved; 3 rows are already approved.',
    );
  });

  it('says when nothing would change (a reset by filter leaves decided rows without override)', () => {
    const p = preview({ pending: 4, approved: 2, rejected: 1 }, 'pending', false);
    expect(previewSentence(p, 'pending', false)).toBe(
      'Nothing will change; 2 approved rows stay approved; 1 rejected row stays rejected; 4 rows are already pending.',
    );
  });

  it('with override, a reset names what it resets', () => {
    const p = preview({ pending: 0, approved: 2, rejected: 0 }, 'pending', true);
    expect(previewSentence(p, 'pending', true)).toBe('2 approved rows will be reset to pending.');
  });
});

describe('resultSentence', () => {
  it('reports changed, skipped and unchanged rows', () => {
    expect(resultSentence({ updated: 980, skipped: 1, unchanged: 2 }, 'approved')).toBe(
      '980 rows approved; 1 decided row left as it was; 2 already approved',
    );
    expect(resultSentence({ updated: 1, skipped: 0, unchanged: 0 }, 'rejected')).toBe('1 row rejected');
  });

  it('says a note given with picked rows was saved on rows that already had the decision', () => {
    expect(resultSentence({ updated: 0, skipped: 0, unchanged: 1 }, 'approved', true)).toBe(
      'Already approved; note saved',
    );
    expect(resultSentence({ updated: 0, skipped: 0, unchanged: 1 }, 'approved', false)).toBe(
      'Already approved',
    );
  });

  it('says "already approved" instead of "0 rows updated"', () => {
    expect(resultSentence({ updated: 0, skipped: 0, unchanged: 1 }, 'approved')).toBe('Already approved');
    expect(resultSentence({ updated: 0, skipped: 0, unchanged: 5 }, 'approved')).toBe(
      'All 5 rows were already approved',
    );
  });

  it('says nothing changed when every matching row was decided', () => {
    expect(resultSentence({ updated: 0, skipped: 3, unchanged: 0 }, 'approved')).toBe(
      'Nothing changed: 3 decided rows left as they were',
    );
    expect(resultSentence({ updated: 0, skipped: 0, unchanged: 0 }, 'approved')).toBe(
      'No rows matched: nothing changed',
    );
  });
});
