import { describe, expect, it } from 'vitest';
import type { AuditDto } from './schema';
import { treeSummary, unfinishedNote } from './tree-summary';

const audit = (over: Partial<AuditDto>) =>
  ({
    status: 'running',
    phase: 'sitemaps',
    progress: { done: 6, total: 21 },
    sitemap: { files: 6, filesFailed: 0, entries: 5, uniqueUrls: 0 },
    timings: {},
    ...over,
  }) as AuditDto;
const list = { problems: 0, notRead: 0, loaded: 6, total: 6 };

describe('treeSummary', () => {
  it("says the audit's own counts while it runs, not the files loaded", () => {
    // The screenshot: the card said "10 files" while the progress said 6 of 21.
    expect(treeSummary(audit({}), { ...list, loaded: 10, total: 10 })).toBe(
      '6 of 21 files read · 0 failed · 0 with problems',
    );
    expect(treeSummary(audit({ phase: 'crawl', progress: { done: 5000, total: 0 } }), list)).toBe(
      '6 files read · 0 failed · 0 with problems',
    );
    expect(
      treeSummary(
        audit({
          status: 'queued',
          phase: 'queued',
          sitemap: { files: 0, filesFailed: 0, entries: 0, uniqueUrls: 0 },
        }),
        list,
      ),
    ).toBe('No file read yet');
  });

  it('once final: files, failed, problems (of the files loaded) and files not read', () => {
    const done = audit({
      status: 'succeeded',
      phase: 'done',
      sitemap: { files: 1, filesFailed: 0, entries: 20, uniqueUrls: 20 },
    });
    expect(treeSummary(done, { ...list, loaded: 1, total: 1 })).toBe('1 file · 0 failed · 0 with problems');
    expect(treeSummary(done, { problems: 3, notRead: 0, loaded: 5000, total: 7000 })).toBe(
      '1 file · 0 failed · 3 with problems among the first 5,000',
    );
    const cancelled = audit({
      status: 'cancelled',
      phase: 'cancelled',
      sitemap: { files: 1, filesFailed: 0, entries: 0, uniqueUrls: 0 },
    });
    expect(treeSummary(cancelled, { problems: 0, notRead: 1, loaded: 2, total: 2 })).toBe(
      '1 file · 0 failed · 0 with problems · 1 not read',
    );
  });
});

describe('unfinishedNote', () => {
  it('explains the missing files of an audit that ended while reading, only then', () => {
    expect(unfinishedNote(audit({ status: 'cancelled' }))).toMatch(/^The audit was cancelled while reading/);
    expect(unfinishedNote(audit({ status: 'failed' }))).toMatch(/^The audit failed while reading/);
    expect(unfinishedNote(audit({ status: 'cancelled', timings: { ingest: 2 } }))).toBeNull();
    expect(unfinishedNote(audit({ status: 'succeeded', timings: { ingest: 2 } }))).toBeNull();
  });
});
