import { describe, expect, it } from 'vitest';
import { reasonLabel } from '@/lib/findings/format';
import { CHANGE_TYPES, DIFF_TYPES, RUN_TRIGGERS } from '@/lib/sites/schema';
import {
  CHANGE_HINTS,
  CHANGE_LABELS,
  DIFF_LABELS,
  DIFF_ROW_LABELS,
  listName,
  onListText,
  TRIGGER_LABELS,
} from './labels';

const distinct = (values: string[]) => new Set(values).size === values.length;

describe('site page words', () => {
  it('names every trigger, change type and difference, each with its own words', () => {
    for (const [words, keys] of [
      [TRIGGER_LABELS, RUN_TRIGGERS],
      [CHANGE_LABELS, CHANGE_TYPES],
      [CHANGE_HINTS, CHANGE_TYPES],
      [DIFF_LABELS, DIFF_TYPES],
      [DIFF_ROW_LABELS, DIFF_TYPES],
    ] as const) {
      const values = keys.map((key) => (words as Record<string, string>)[key] ?? '');
      expect(values.every((value) => value.trim().length > 0)).toBe(true);
      expect(distinct(values)).toBe(true);
    }
  });

  it('tells a diff removal from the feed removals, so one pair of runs reads without contradiction', () => {
    const feedRemovals = [CHANGE_LABELS.url_removed_pending, CHANGE_LABELS.url_removed_confirmed];
    expect(feedRemovals).not.toContain(DIFF_LABELS.url_removed);
    expect(DIFF_LABELS.url_removed).toBe('Only in the older run');
    expect(CHANGE_LABELS.url_removed_confirmed).toBe('Removed (missed twice)');
  });

  it('names one row in the singular where a chip counts many', () => {
    expect(DIFF_LABELS.new_problem).toBe('New problems');
    expect(DIFF_ROW_LABELS.new_problem).toBe('New problem');
    expect(DIFF_ROW_LABELS.fixed_problem).toBe('Fixed problem');
    expect(DIFF_ROW_LABELS.url_added).toBe(DIFF_LABELS.url_added);
  });
});

describe('onListText', () => {
  it('names the list and, when there is one, the reason in words', () => {
    expect(onListText('prune', 'http_404')).toBe(`the prune list (${reasonLabel('http_404')})`);
    expect(reasonLabel('http_404')).not.toBe('http_404');
    expect(onListText('add', null)).toBe('the add list');
  });

  it('says "no list" for a URL on none and names a list it has no words for', () => {
    expect(onListText(null, 'http_404')).toBe('no list');
    expect(listName('held')).toBe('the held list');
    expect(listName('gone')).toBe('the gone list');
  });
});
