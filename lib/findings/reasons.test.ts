import { describe, expect, it } from 'vitest';
import {
  EXCLUDED_INFO,
  isDescribedReason,
  type ReasonInfo,
  reasonInfo,
  SIGNAL_INFO,
  signalInfo,
} from './reasons';
import { ADD_REASONS, HELD_REASONS, PRUNE_REASONS, SIGNALS, ZAddExcluded } from './schema';

/** Every reason the schema lists, with http_<status> standing for a client and a server error. */
const REASONS = [...PRUNE_REASONS, ...HELD_REASONS, ...ADD_REASONS].flatMap((r) =>
  r === 'http_4xx_5xx' ? ['http_404', 'http_410', 'http_503'] : [r],
);

function expectWords(info: ReasonInfo | undefined) {
  expect(info?.label).toMatch(/\S/);
  // One sentence each, ending with a full stop.
  expect(info?.definition).toMatch(/^[A-Z"'(a-z].*\.$/);
  expect(info?.fix).toMatch(/^[A-Z].*\.$/);
  expect(info?.definition).not.toBe(reasonInfo('no_such_rule').definition);
}

describe('reason definitions', () => {
  it.each(REASONS)('explains the reason %s', (reason) => {
    expect(isDescribedReason(reason)).toBe(true);
    expectWords(reasonInfo(reason));
  });

  it.each(Object.keys(ZAddExcluded.shape))('explains the Not added bucket %s', (bucket) => {
    expectWords(EXCLUDED_INFO[bucket as keyof typeof EXCLUDED_INFO]);
  });

  it.each(SIGNALS)('explains the signal %s', (signal) => {
    expectWords(signalInfo(signal));
  });

  it('has no words for anything the schema does not list', () => {
    expect(Object.keys(EXCLUDED_INFO).sort()).toEqual(Object.keys(ZAddExcluded.shape).sort());
    expect(Object.keys(SIGNAL_INFO).sort()).toEqual([...SIGNALS].sort());
  });

  it('names every HTTP status and tells a server error from a missing page', () => {
    expect(reasonInfo('http_404').label).toBe('HTTP 404');
    expect(reasonInfo('http_404').definition).toMatch(/missing/);
    expect(reasonInfo('http_503').definition).toMatch(/server error/);
    expect(reasonInfo('http_429').definition).toMatch(/server error/);
  });

  it('says a 410 is gone for good, a 404 missing, and only 401 and 403 refuse access', () => {
    const gone = reasonInfo('http_410');
    expect(gone.definition).toMatch(/410 Gone: .*removed for good/);
    expect(gone.definition).not.toBe(reasonInfo('http_404').definition);
    expect(gone.fix).not.toMatch(/restore/);
    for (const status of [404, 410, 400])
      expect(reasonInfo(`http_${status}`).definition).not.toMatch(/access/);
    for (const status of [401, 403])
      expect(reasonInfo(`http_${status}`).definition).toMatch(/refuses access/);
  });

  it('keeps the labels the lists have always shown', () => {
    expect(reasonInfo('unreached_by_crawl').label).toBe('Not reached by the crawl');
    expect(reasonInfo('reachable_not_declared').label).toBe('Reachable, not declared');
    expect(reasonInfo('server_error').label).toBe('Server error');
  });

  it('names an unknown reason after its code, and says it is not described', () => {
    expect(isDescribedReason('some_new_rule')).toBe(false);
    expect(reasonInfo('some_new_rule').label).toBe('Some new rule');
    expect(reasonInfo('').label).toBe('Unknown reason');
    expect(isDescribedReason('http_4041')).toBe(false);
  });
});
