import { describe, expect, it } from 'vitest';
import { readFixture } from './fixtures';

describe('fixture corpus', () => {
  it('is reachable', () => {
    expect(readFixture('text/cc-sitemap.txt').length).toBeGreaterThan(0);
  });
});
