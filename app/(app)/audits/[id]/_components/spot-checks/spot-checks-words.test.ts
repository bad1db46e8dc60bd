import { describe, expect, it } from 'vitest';
import { share, statusText } from './spot-checks-words';

describe('share', () => {
  it('gives a share with its sample size, a decimal only for small non-zero shares', () => {
    expect(share({ value: 0.25, low: 0.1, high: 0.4, n: 1200 })).toBe('25 % (n = 1,200)');
    expect(share({ value: 0.042, low: 0.01, high: 0.1, n: 48 })).toBe('4.2 % (n = 48)');
    expect(share({ value: 0, low: 0, high: 0.1, n: 30 })).toBe('0 % (n = 30)');
  });
  it('is a dash without a sample', () => {
    expect(share(undefined)).toBe('—');
    expect(share({ value: null, low: null, high: null, n: 0 })).toBe('—');
  });
});

describe('statusText', () => {
  it('gives the final status, or says there was no answer', () => {
    expect(statusText({ verdict: 'confirmed', finalStatus: 404, liveReason: null })).toBe('404');
    expect(statusText({ verdict: 'error', finalStatus: null, liveReason: null } as never)).toBe('no answer');
  });
});
