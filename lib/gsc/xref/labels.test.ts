import { describe, expect, it } from 'vitest';
import { GSC_FILTERS } from '@/lib/findings/evidence/gsc';
import { gscAgreementText, gscBadgeText, gscFilterLabel } from './labels';

describe('gscBadgeText', () => {
  it('names the state and a short reason', () => {
    expect(gscBadgeText({ state: 'indexed', bucket: null, reason: null })).toBe('Indexed');
    expect(gscBadgeText({ state: 'not_indexed', bucket: 'http_404', reason: 'Not found (404)' })).toBe(
      'Not indexed: 404',
    );
    // A reason no bucket knows is shown as Google wrote it.
    expect(gscBadgeText({ state: 'not_indexed', bucket: 'other', reason: 'Something new' })).toBe(
      'Not indexed: Something new',
    );
  });
});

describe('gscFilterLabel', () => {
  it('labels every filter value, each differently', () => {
    const labels = GSC_FILTERS.map(gscFilterLabel);
    expect(new Set(labels).size).toBe(GSC_FILTERS.length);
    expect(gscFilterLabel('unknown')).toBe('Not in Search Console');
  });
});

describe('gscAgreementText', () => {
  it('says prune with care for an indexed prune row', () => {
    expect(gscAgreementText({ state: 'indexed', agrees: null }, true)).toMatch(/prune with care/);
    expect(gscAgreementText({ state: 'not_indexed', agrees: false }, true)).toMatch(/disagree/);
    expect(gscAgreementText({ state: 'not_indexed', agrees: true }, true)).toMatch(/agrees/);
  });
});
