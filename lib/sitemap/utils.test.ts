import { describe, expect, it } from 'vitest';
import { countLineBreaks, isAbsoluteHttpUrl } from './utils';

describe('isAbsoluteHttpUrl', () => {
  it.each([
    ['http://example.com'],
    ['https://example.com/a?b=c#d'],
    ['HTTPS://EXAMPLE.COM/'],
    ['https://roosterteeth.com/episode/video-game-vault-\tkid-icarus'],
  ])('accepts %j', (value) => {
    expect(isAbsoluteHttpUrl(value)).toBe(true);
  });

  it.each([
    [''],
    ['/relative'],
    ['example.com/page'],
    ['ftp://example.com/'],
    ['http:example.com'],
    ['http:/example.com'],
    ['https://'],
    ['This is'],
    ['mailto:a@b.c'],
  ])('rejects %j', (value) => {
    expect(isAbsoluteHttpUrl(value)).toBe(false);
  });
});

describe('countLineBreaks', () => {
  it('counts LF, CR and CRLF as one break each, also across calls', () => {
    expect(countLineBreaks('a\nb\r\nc\rd', false)).toBe(3);
    expect(countLineBreaks('\n\n', false)).toBe(2);
    expect(countLineBreaks('\nx', true)).toBe(0);
    expect(countLineBreaks('', false)).toBe(0);
  });
});
