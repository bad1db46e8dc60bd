import { describe, expect, it } from 'vitest';
import {
  compareChoiceLabel,
  comparisonLine,
  describeBudget,
  describeRequest,
  runName,
  startBlockedBy,
  verdictLabel,
} from './labels';

const at = (iso: string) => iso.slice(11, 16);
const run = (number: number, request: Parameters<typeof describeRequest>[0]['request']) => ({
  number,
  request,
  createdAt: '2026-12-02T00:32:10.000Z',
  createdBy: 'Rita Reviewer',
});
const sample = { sample: 50, seed: 7, includeAdd: false, ignoreRobots: false };

describe('run labels', () => {
  it('name runs started in the same minute apart by their number', () => {
    const first = run(1, sample);
    const again = run(2, sample);
    expect(runName(first)).toBe('Run #1');
    expect(compareChoiceLabel(first, at)).not.toBe(compareChoiceLabel(again, at));
    expect(comparisonLine(first, again, at)).toMatch(/^From Run #1 \(00:32\) to Run #2 \(00:32\)/);
  });

  it('put the name first in a compare choice, so a narrow select still shows it', () => {
    expect(compareChoiceLabel(run(3, { ...sample, ignoreRobots: true }), at)).toBe(
      'Run #3 · Sample of 50, seed 7, robots.txt ignored · 00:32 · Rita Reviewer',
    );
  });

  it('say that the rows compared include those a run could not fetch, as the changes list them', () => {
    expect(comparisonLine(run(1, sample), run(4, sample), at)).toContain(
      `could not fetch reads “${verdictLabel('error')}”`,
    );
  });

  it('describe what a run asked for', () => {
    expect(describeRequest(run(1, { ids: [4], ignoreRobots: false }))).toBe('1 chosen row');
    expect(describeRequest(run(1, { ...sample, includeAdd: true }))).toBe(
      'Sample of 50, seed 7, add list included',
    );
  });
});

describe('startBlockedBy', () => {
  it('names the run still queued or running, and nothing once every run has ended', () => {
    expect(
      startBlockedBy([
        { number: 3, status: 'running' },
        { number: 2, status: 'succeeded' },
      ]),
    ).toBe('Run #3');
    expect(startBlockedBy([{ number: 4, status: 'queued' }])).toBe('Run #4');
    expect(
      startBlockedBy([
        { number: 2, status: 'cancelled' },
        { number: 1, status: 'partial' },
      ]),
    ).toBeNull();
    expect(startBlockedBy([])).toBeNull();
  });
});

describe('describeBudget', () => {
  it("states a run's budget in a line, and nothing for a run from before budgets", () => {
    const budget = { timeSeconds: 1_800, requests: 15_000, hostRefusals: 3, maxRetryAfterSeconds: 30 };
    expect(describeBudget({ budget })).toBe(
      'Budget: 30 min, 15,000 requests; a host is given up after 3 refused URLs in a row or a Retry-After over 30 s',
    );
    expect(describeBudget({ budget: { ...budget, timeSeconds: 90, requests: 1, hostRefusals: 1 } })).toBe(
      'Budget: 90 s, 1 request; a host is given up after 1 refused URL in a row or a Retry-After over 30 s',
    );
    expect(describeBudget({ budget: null })).toBeNull();
  });
});
