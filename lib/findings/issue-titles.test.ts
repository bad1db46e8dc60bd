import { describe, expect, it } from 'vitest';
import { issueTitle } from './issue-titles';

describe('issueTitle', () => {
  it('titles errors, warnings, sanity warnings and signals in words, never as their code', () => {
    expect(issueTitle('xml_malformed')).toBe('Malformed XML');
    expect(issueTitle('no_crawl')).toBe('No crawl export');
    expect(issueTitle('missing_namespace')).toBe('Missing sitemap namespace');
    expect(issueTitle('prune_share_high')).toBe('A large share of the sitemap would be pruned');
    expect(issueTitle('multi_file')).toBe('In several sitemap files');
    for (const code of ['xml_malformed', 'no_crawl', 'audit_failed', 'hosts_not_crawled', 'canonical_chain'])
      expect(issueTitle(code)).not.toMatch(/_/);
  });

  it('has no title for a code it does not know: the message speaks for itself', () => {
    expect(issueTitle('some_future_code')).toBeNull();
  });
});
