import { describe, expect, it } from 'vitest';
import { progressOf, progressText } from './progress';

const row = { phase: 'sitemaps', progressDone: 0, progressTotal: 0, sitemapFiles: 0, crawlRows: 0 };

describe('progressOf', () => {
  it('counts the crawl rows stored while the crawl export is read after the tree', () => {
    // The row the issue saw: the crawl phase had just begun at 0 while 5,000 rows were stored.
    expect(progressOf({ ...row, phase: 'crawl', progressDone: 0, crawlRows: 5000 })).toEqual({
      done: 5000,
      total: 0,
    });
  });

  it('counts the files read while the tree is read, never more than the total', () => {
    expect(progressOf({ ...row, progressDone: 2, progressTotal: 5, sitemapFiles: 3 })).toEqual({
      done: 3,
      total: 5,
    });
    expect(progressOf({ ...row, progressDone: 4, progressTotal: 1, sitemapFiles: 4 })).toEqual({
      done: 4,
      total: 4,
    });
    expect(progressOf({ ...row, phase: 'indexing_sitemaps', progressTotal: 7, sitemapFiles: 7 })).toEqual({
      done: 7,
      total: 7,
    });
  });

  it('counts nothing while waiting or reconciling; a finished run keeps its last count', () => {
    for (const phase of ['queued', 'retrying', 'starting', 'reconcile_queued', 'reconciling'])
      expect(progressOf({ ...row, phase, progressDone: 4, progressTotal: 4, sitemapFiles: 4 })).toEqual({
        done: 0,
        total: 0,
      });
    expect(progressOf({ ...row, phase: 'done', progressDone: 5, progressTotal: 4 })).toEqual({
      done: 4,
      total: 4,
    });
  });
});

describe('progressText', () => {
  it('names what is counted', () => {
    expect(progressText('sitemaps', { done: 3, total: 5 })).toBe('3 of 5 files');
    expect(progressText('sitemaps', { done: 1, total: 1 })).toBe('1 of 1 file');
    expect(progressText('crawl', { done: 5000, total: 0 })).toBe('5,000 rows');
    expect(progressText('reconciling', { done: 0, total: 1 })).toBeNull();
  });
});
