import { describe, expect, it } from 'vitest';
import { countText, urlBreakParts } from './format';

describe('urlBreakParts', () => {
  it('breaks after separators, never inside a word, and joins back to the URL', () => {
    const url = 'https://pages.example.com/old/page-001?a=1&b=2';
    const parts = urlBreakParts(url);
    expect(parts.join('')).toBe(url);
    expect(parts).toContain('old/');
    expect(parts).toContain('page-');
    expect(parts).toContain('001?');
    // "/hidden" keeps "hidden" whole: the break comes before it, after the slash.
    expect(urlBreakParts('https://x.example/hidden').at(-1)).toBe('hidden');
  });

  it('keeps a run of separators together and a URL without any whole', () => {
    expect(urlBreakParts('https://a')).toEqual(['https://', 'a']);
    expect(urlBreakParts('plainword')).toEqual(['plainword']);
    expect(urlBreakParts('').join('')).toBe('');
  });
});

describe('countText', () => {
  it('puts the noun in the number of the count', () => {
    expect(countText(1, 'row')).toBe('1 row');
    expect(countText(0, 'row')).toBe('0 rows');
    expect(countText(1200, 'row')).toBe('1,200 rows');
    expect(countText(1, 'entry', 'entries')).toBe('1 entry');
    expect(countText(2, 'entry', 'entries')).toBe('2 entries');
  });
});
