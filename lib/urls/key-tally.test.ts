import { describe, expect, it } from 'vitest';
import { hash53, KeyTally } from './key-tally';

describe('hash53', () => {
  it('is deterministic, a safe integer, and never 0', () => {
    for (const key of ['', 'a', 'https://example.com/', 'https://example.com/ü?q=1']) {
      const h = hash53(key);
      expect(h).toBe(hash53(key));
      expect(Number.isSafeInteger(h)).toBe(true);
      expect(h).toBeGreaterThan(0);
    }
  });

  it('spreads 200,000 similar URLs without a collision', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200_000; i++) seen.add(hash53(`https://example.com/products/${i}`));
    expect(seen.size).toBe(200_000);
  });
});

describe('KeyTally', () => {
  it('proves keys distinct across many table growths', () => {
    const tally = new KeyTally();
    for (let i = 0; i < 300_000; i++) tally.add(`https://example.com/p/${i}?v=${i % 7}`);
    expect(tally.count).toBe(300_000);
    expect(tally.distinct).toBe(300_000);
  });

  it('answers "not known" once a key repeats, and keeps counting', () => {
    const tally = new KeyTally();
    tally.add('https://example.com/a');
    tally.add('https://example.com/b');
    tally.add('https://example.com/a');
    tally.add('https://example.com/c');
    expect(tally.count).toBe(4);
    expect(tally.distinct).toBeNull();
  });

  it('does not count null keys', () => {
    const tally = new KeyTally();
    tally.add(null);
    tally.add('https://example.com/a');
    tally.add(null);
    expect(tally.count).toBe(1);
    expect(tally.distinct).toBe(1);
  });
});
