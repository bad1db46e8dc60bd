import { describe, expect, it } from 'vitest';
import type { FindingSpotCheck } from '@/lib/findings/schema';
import {
  approvalBlockedReason,
  approveConfirmedOf,
  confirmedUnreachedRequiredMessage,
  spotCheckRequiredMessage,
} from './decision-rule';

const check = (verdict: FindingSpotCheck['verdict']): FindingSpotCheck => ({
  verdict,
  liveReason: null,
  finalStatus: 404,
  checkedAt: '2026-12-01T10:00:00.000Z',
  runId: 'r',
});
const unreached = { list: 'prune' as const, reason: 'unreached_by_crawl', signals: [] };

describe('approving unreached rows while the site requires them confirmed across two crawls', () => {
  const confirmed = { ...unreached, signals: ['unreached_confirmed'], spotCheck: null };

  it('lets confirmed rows through, refuses the others, and guards only unreached prune rows', () => {
    expect(approvalBlockedReason(confirmed, false, true)).toBeNull();
    expect(approvalBlockedReason({ ...unreached, spotCheck: check('confirmed') }, false, true)).toMatch(
      /confirmed across two crawls/,
    );
    expect(approvalBlockedReason({ ...unreached, spotCheck: null }, false, false)).toBeNull();
    expect(
      approvalBlockedReason({ list: 'prune', reason: 'http_404', signals: [], spotCheck: null }, false, true),
    ).toBeNull();
  });

  it('still asks for the spot-check when the audit requires one too', () => {
    expect(approvalBlockedReason(confirmed, true, true)).toMatch(/spot-check this row first/);
    expect(approvalBlockedReason({ ...confirmed, spotCheck: check('dead') }, true, true)).toBeNull();
  });

  it('counts the rows in the refusal and says how to approve the confirmed ones', () => {
    expect(confirmedUnreachedRequiredMessage(1)).toMatch(/^1 unreached_by_crawl row is not confirmed/);
    expect(confirmedUnreachedRequiredMessage(2)).toMatch(/^2 unreached_by_crawl rows are not confirmed/);
    expect(confirmedUnreachedRequiredMessage(2)).toContain('signal=unreached_confirmed');
  });
});

describe('approving unreached rows while the audit requires a spot-check', () => {
  it('lets confirmed and dead rows through, and everything when the setting is off', () => {
    expect(approvalBlockedReason({ ...unreached, spotCheck: check('confirmed') }, true)).toBeNull();
    expect(approvalBlockedReason({ ...unreached, spotCheck: check('dead') }, true)).toBeNull();
    expect(approvalBlockedReason({ ...unreached, spotCheck: null }, false)).toBeNull();
  });

  it('guards only unreached prune rows', () => {
    expect(
      approvalBlockedReason({ list: 'prune', reason: 'http_404', signals: [], spotCheck: null }, true),
    ).toBeNull();
    expect(
      approvalBlockedReason({ list: 'held', reason: 'server_error', signals: [], spotCheck: null }, true),
    ).toBeNull();
  });

  it('says why: no check yet, or what the latest check found', () => {
    expect(approvalBlockedReason({ ...unreached, spotCheck: null }, true)).toMatch(
      /spot-check this row first/,
    );
    expect(approvalBlockedReason({ ...unreached, spotCheck: check('orphan_live') }, true)).toMatch(
      /latest check says orphan_live/,
    );
  });

  it('counts the rows in the refusal', () => {
    expect(spotCheckRequiredMessage(1)).toMatch(/^1 unreached_by_crawl row has no confirming/);
    expect(spotCheckRequiredMessage(3)).toMatch(/^3 unreached_by_crawl rows have no confirming/);
    expect(spotCheckRequiredMessage(3)).toContain('verdict=confirming');
  });
});

describe('approve all confirmed', () => {
  it('takes confirmed and dead rows of the prune list, keeping the other filters', () => {
    expect(approveConfirmedOf({ list: 'prune', reason: 'unreached_by_crawl' })).toEqual({
      filter: { list: 'prune', reason: 'unreached_by_crawl', verdict: 'confirming' },
      rows: 'confirmed or dead',
    });
  });

  it('offers nothing on the held list: held rows are never approved in bulk', () => {
    expect(approveConfirmedOf({ list: 'held' })).toBeNull();
    expect(approveConfirmedOf({ list: 'held', reason: 'server_error', verdict: 'confirmed' })).toBeNull();
  });

  it('takes confirmed rows alone on the add list', () => {
    expect(approveConfirmedOf({ list: 'add' })).toEqual({
      filter: { list: 'add', verdict: 'confirmed' },
      rows: 'confirmed',
    });
  });

  it('keeps a confirming verdict the view filters by, and offers nothing under another', () => {
    expect(approveConfirmedOf({ list: 'prune', verdict: 'dead' })?.rows).toBe('dead');
    expect(approveConfirmedOf({ list: 'prune', verdict: 'confirmed' })?.rows).toBe('confirmed');
    expect(approveConfirmedOf({ list: 'prune', verdict: 'contradicted' })).toBeNull();
    expect(approveConfirmedOf({ list: 'prune', verdict: 'unchecked' })).toBeNull();
  });
});
