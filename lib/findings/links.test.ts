import { describe, expect, it } from 'vitest';
import { clipForDisplay, DISPLAY_MAX_CHARS } from '@/lib/core/display';
import { decisionPreviewHref, filterParams, reasonCountsHref, safeHref } from './links';

describe('links that take a filter', () => {
  it('builds reason-count and decision-preview links from a filter', () => {
    const filter = {
      list: 'prune' as const,
      reason: 'http_404',
      decision: 'pending' as const,
      q: 'a&b',
      file: 2,
    };
    expect(reasonCountsHref('id', filter)).toBe(
      '/api/v1/audits/id/findings/reasons?list=prune&decision=pending&q=a%26b&file=2',
    );
    expect(decisionPreviewHref('id', 'approved', filter)).toBe(
      '/api/v1/audits/id/decisions/preview?list=prune&reason=http_404&q=a%26b&file=2&decision=approved&filterDecision=pending',
    );
    expect(decisionPreviewHref('id', 'rejected', { list: 'add' }, true)).toBe(
      '/api/v1/audits/id/decisions/preview?list=add&decision=rejected&override=1',
    );
  });

  it('writes every given filter once, list first', () => {
    expect(filterParams({ list: 'held', signal: 'canonical_chain', host: 'x.example' }).toString()).toBe(
      'list=held&signal=canonical_chain&host=x.example',
    );
  });
});

describe('safeHref', () => {
  it.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.COM/x', 'https://example.com/x'],
  ])('links %s', (url, href) => {
    expect(safeHref(url)).toBe(href);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0000javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com/',
    '//evil.example/',
    '/relative/path',
    'example.com/no-scheme',
    'not a url',
    '',
    null,
    undefined,
  ])('never links %j', (url) => {
    expect(safeHref(url)).toBeNull();
  });

  it('never links a URL cut by the display bound', () => {
    const long = `https://example.com/${'a'.repeat(DISPLAY_MAX_CHARS)}`;
    expect(safeHref(long)).toBeNull();
    expect(safeHref(clipForDisplay(long))).toBeNull();
    expect(safeHref(long.slice(0, DISPLAY_MAX_CHARS))).toBe(long.slice(0, DISPLAY_MAX_CHARS));
  });
});
