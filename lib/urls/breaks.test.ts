import { describe, expect, it } from 'vitest';
import { urlBreakParts } from './breaks';

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

  it('keeps hosts, addresses and file names whole: no break after a dot', () => {
    expect(urlBreakParts('http://127.0.0.1:3218/slow-child/9.xml')).toEqual([
      'http://',
      '127.0.0.1:3218/',
      'slow-',
      'child/',
      '9.xml',
    ]);
    expect(urlBreakParts('https://www.example.com/sitemap.xml')).toEqual([
      'https://',
      'www.example.com/',
      'sitemap.xml',
    ]);
  });

  it('keeps a run of separators together and a URL without any whole', () => {
    expect(urlBreakParts('https://a')).toEqual(['https://', 'a']);
    expect(urlBreakParts('plainword')).toEqual(['plainword']);
    expect(urlBreakParts('').join('')).toBe('');
  });
});
