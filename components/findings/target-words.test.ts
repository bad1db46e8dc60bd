import { describe, expect, it } from 'vitest';
import { isBadTargetStatus, shortTargetUrl, targetKindLabel } from './target-words';

describe('target words', () => {
  it('shortens a target on the same origin to its path and query', () => {
    expect(shortTargetUrl('https://x.test/new?a=1', 'https://x.test/old')).toBe('/new?a=1');
    expect(shortTargetUrl('https://x.test/new#top', 'https://x.test/a?b=1')).toBe('/new#top');
  });

  it('keeps the whole URL when the host or the scheme differs (www → apex is the point)', () => {
    expect(shortTargetUrl('https://www.x.test/a', 'https://x.test/a')).toBe('https://www.x.test/a');
    expect(shortTargetUrl('http://x.test/a', 'https://x.test/a')).toBe('http://x.test/a');
  });

  it('leaves text that is not a URL as it is', () => {
    expect(shortTargetUrl('not a url', 'https://x.test/a')).toBe('not a url');
  });

  it('names each kind of target', () => {
    expect(targetKindLabel('redirect')).toBe('Redirect target');
    expect(targetKindLabel('variant')).toBe('Crawled variant');
  });

  it('calls anything but 2xx a bad target status', () => {
    expect(isBadTargetStatus(200)).toBe(false);
    expect(isBadTargetStatus(301)).toBe(true);
    expect(isBadTargetStatus(404)).toBe(true);
    expect(isBadTargetStatus(null)).toBe(false);
  });
});
