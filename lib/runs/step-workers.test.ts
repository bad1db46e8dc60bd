import { describe, expect, it } from 'vitest';
import { stepWorkersOf } from './step-workers';

describe('stepWorkersOf', () => {
  it('reads the claims a run recorded, in order, and leaves out what is not one', () => {
    expect(
      stepWorkersOf([
        { step: 'ingest', attempt: 1, worker: 'w-1', host: 'b', at: '2026-12-01T10:00:00.5+00:00' },
        { step: 'reconcile', attempt: 2, worker: 'w-2', host: 'c', at: '2026-12-01T10:01:00Z' },
        { step: 'reconcile', worker: null },
        'junk',
      ]),
    ).toEqual([
      { step: 'ingest', attempt: 1, worker: 'w-1', host: 'b', at: '2026-12-01T10:00:00.500Z' },
      { step: 'reconcile', attempt: 2, worker: 'w-2', host: 'c', at: '2026-12-01T10:01:00.000Z' },
    ]);
    expect(stepWorkersOf(null)).toEqual([]);
  });
});
