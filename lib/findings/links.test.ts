import { describe, expect, it } from 'vitest';
import { decisionPreviewHref, filterParams, reasonCountsHref } from './links';

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
