import { describe, expect, it } from 'vitest';
import {
  auditsTotalText,
  crawlRowsText,
  entriesText,
  firstSentence,
  isPhaseShown,
  noFindingsText,
  notReviewedText,
  pageOfText,
} from './audit-list-words';

const crawl = { rows: 0, given: false };

describe('an audit without findings', () => {
  it('says why a failed audit failed, in its first sentence, not "No crawl export"', () => {
    const failed = {
      status: 'failed' as const,
      failure: 'sitemap.xml answered HTTP 404. Retried twice.',
      crawl,
    };
    expect(noFindingsText(failed)).toBe('Failed: sitemap.xml answered HTTP 404.');
    expect(noFindingsText({ ...failed, failure: null })).toBe('Failed before reconciling');
    expect(notReviewedText(failed)).toBe('Nothing to review: the audit failed');
  });

  it('tells a sitemap-only audit, a cancelled one and a running one apart', () => {
    expect(noFindingsText({ status: 'succeeded', failure: null, crawl })).toBe('No crawl export');
    expect(notReviewedText({ status: 'succeeded', crawl })).toBe('Nothing to review: no crawl export');
    expect(noFindingsText({ status: 'cancelled', failure: null, crawl })).toBe(
      'Cancelled before reconciling',
    );
    expect(noFindingsText({ status: 'running', failure: null, crawl })).toBe('Not reconciled yet');
  });

  it('cuts a long first sentence, and keeps a message without a full stop whole', () => {
    expect(firstSentence('a'.repeat(300))).toHaveLength(110);
    expect(firstSentence('a'.repeat(300)).endsWith('…')).toBe(true);
    expect(firstSentence('No sitemap found at https://x.example/a.b')).toBe(
      'No sitemap found at https://x.example/a.b',
    );
  });
});

describe('counts in the right number', () => {
  it('says "1 audit matches" and "29 audits match"', () => {
    expect(auditsTotalText(1, true)).toBe('1 audit matches');
    expect(auditsTotalText(29, true)).toBe('29 audits match');
    expect(auditsTotalText(1, false)).toBe('1 audit');
    expect(auditsTotalText(0, false)).toBe('0 audits');
  });

  it('says "1 entry" and "1 crawl row", never "1 entries" or "1 crawl rows"', () => {
    expect(entriesText(1)).toBe('1 entry');
    expect(entriesText(6)).toBe('6 entries');
    expect(crawlRowsText(1)).toBe('1 crawl row');
    expect(crawlRowsText(318)).toBe('318 crawl rows');
  });

  it('gives the number of pages', () => {
    expect(pageOfText(1, 29, 25)).toBe('Page 1 of 2');
    expect(pageOfText(2, 50, 25)).toBe('Page 2 of 2');
    expect(pageOfText(1, 0, 25)).toBe('Page 1 of 1');
  });
});

describe("the phase under an audit's status", () => {
  it('shows while the audit runs, whatever the phase', () => {
    expect(isPhaseShown({ status: 'running', phase: 'starting' })).toBe(true);
    expect(isPhaseShown({ status: 'running', phase: 'reconciling' })).toBe(true);
  });

  it('shows for a queued audit only when its phase says more than waiting', () => {
    expect(isPhaseShown({ status: 'queued', phase: 'queued' })).toBe(false);
    expect(isPhaseShown({ status: 'queued', phase: 'starting' })).toBe(false);
    expect(isPhaseShown({ status: 'queued', phase: 'retrying' })).toBe(true);
  });

  it('does not show once the audit has ended', () => {
    for (const status of ['succeeded', 'partial', 'failed', 'cancelled'] as const)
      expect(isPhaseShown({ status, phase: 'reconciling' })).toBe(false);
  });
});
