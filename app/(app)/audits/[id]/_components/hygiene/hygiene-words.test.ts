import { describe, expect, it } from 'vitest';
import { flaggedSentence, percent, ruleTitle } from './hygiene-words';

describe('ruleTitle', () => {
  it('gives a known rule its title and an unknown code as it is', () => {
    expect(ruleTitle('file_unreadable')).toBe('File could not be fetched or parsed');
    expect(ruleTitle('rule_from_a_newer_worker')).toBe('rule_from_a_newer_worker');
  });
});

describe('percent', () => {
  it('shows the 1 % threshold with a decimal, small shares as <0.1 %, large ones whole', () => {
    expect(percent(0)).toBe('0 %');
    expect(percent(0.0004)).toBe('<0.1 %');
    expect(percent(0.009)).toBe('0.9 %');
    expect(percent(0.012)).toBe('1.2 %');
    expect(percent(0.456)).toBe('46 %');
  });
});

describe('flaggedSentence', () => {
  it('agrees the verb with the count', () => {
    expect(flaggedSentence(0, 4)).toBe('No file has more than 1 % of its entries on the prune list.');
    expect(flaggedSentence(1, 1)).toBe('The one file has more than 1 % of its entries on the prune list.');
    expect(flaggedSentence(3, 3)).toBe('All 3 files have more than 1 % of their entries on the prune list.');
    expect(flaggedSentence(1, 2)).toBe('1 of 2 files has more than 1 % of its entries on the prune list.');
    expect(flaggedSentence(2, 1500)).toBe(
      '2 of 1,500 files have more than 1 % of their entries on the prune list.',
    );
  });
});
