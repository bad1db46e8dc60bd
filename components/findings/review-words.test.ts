import { describe, expect, it } from 'vitest';
import { emptyListMessage, firstNonEmptyList } from './review-words';

const none = { otherHost: 0, blocked: 0, non200: 0, nonHtml: 0, canonicalised: 0, noindex: 0 };

function counts(prune: number, held: number, add: number, addExcluded = none) {
  const list = (total: number) => ({ total, byReason: {} });
  return { prune: list(prune), held: list(held), add: list(add), addExcluded };
}

describe('firstNonEmptyList', () => {
  it('opens on prune, then held, then add', () => {
    expect(firstNonEmptyList(counts(3, 2, 1))).toBe('prune');
    expect(firstNonEmptyList(counts(0, 2, 1))).toBe('held');
    expect(firstNonEmptyList(counts(0, 0, 1))).toBe('add');
    expect(firstNonEmptyList(counts(0, 0, 0))).toBe('prune');
  });
});

describe('emptyListMessage', () => {
  it('never says "Nothing to prune" bare when rows are held', () => {
    expect(emptyListMessage('prune', counts(0, 4, 0))).toBe(
      'Nothing to prune yet: 4 declared URLs are held until they can be judged (see the Held list).',
    );
    expect(emptyListMessage('prune', counts(0, 0, 0))).toBe(
      'Nothing to prune: the crawl backs up every declared URL.',
    );
  });

  it('says the crawl does not overlap instead of "nothing to prune" or "nothing to add"', () => {
    for (const list of ['prune', 'add'] as const) {
      const text = emptyListMessage(list, counts(0, 0, 0), { hasNoOverlap: true });
      expect(text).toMatch(/no declared URL appears in the crawl/);
      expect(text).not.toMatch(/^Nothing to/);
    }
  });

  it('points an empty add list at the pages it left out', () => {
    expect(emptyListMessage('add', counts(0, 0, 0, { ...none, nonHtml: 12, noindex: 1 }))).toMatch(
      /13 other crawled URLs are counted under “Not added”/,
    );
  });
});
