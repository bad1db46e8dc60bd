import { describe, expect, it } from 'vitest';
import { chosenSection, sectionSearch } from './section-url';

const ids = ['review', 'spot-checks', 'files', 'crawl'];

describe('chosenSection', () => {
  it('follows the URL when it names a section on the page, else opens the first', () => {
    expect(chosenSection(ids, 'files')).toBe('files');
    expect(chosenSection(ids, null)).toBe('review');
    // Sharing is not offered to a viewer, and no review exists before the audit is reconciled.
    expect(chosenSection(ids, 'sharing')).toBe('review');
    expect(chosenSection(['files', 'crawl'], 'review')).toBe('files');
    expect(chosenSection([], 'files')).toBeUndefined();
  });
});

describe('sectionSearch', () => {
  it('sets the tab and keeps the review’s filters and cursor', () => {
    expect(sectionSearch('list=held&reason=http_404&cursor=abc', 'files', 'review')).toBe(
      'list=held&reason=http_404&cursor=abc&tab=files',
    );
    expect(sectionSearch('list=held&tab=files', 'crawl', 'review')).toBe('list=held&tab=crawl');
  });

  it('leaves the first section out of the URL', () => {
    expect(sectionSearch('list=held&tab=files', 'review', 'review')).toBe('list=held');
    expect(sectionSearch('tab=crawl', 'review', 'review')).toBe('');
  });
});
