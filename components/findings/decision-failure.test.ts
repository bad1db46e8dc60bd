import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/client/api';
import { decisionFailureSentence } from './decision-failure';

describe('decisionFailureSentence', () => {
  it('says a refused role is read-only access and who can change it', () => {
    const text = decisionFailureSentence(new ApiError(403, 'forbidden', 'Forbidden'));
    expect(text).toBe(
      'The decision was not saved: your account can only read this audit. Ask an admin for the reviewer role to decide.',
    );
  });

  it('says what to do when signed out, unreachable or gone', () => {
    expect(decisionFailureSentence(new ApiError(401, 'unauthenticated', 'x'))).toContain('Sign in again');
    expect(decisionFailureSentence(new ApiError(0, 'network', 'x'))).toContain('Check your connection');
    expect(decisionFailureSentence(new ApiError(404, 'not_found', 'x'))).toContain('Reload the page');
  });

  it("keeps the server's sentence for other refusals (the spot-check rule)", () => {
    const rule = new ApiError(409, 'spot_check_required', '3 rows have no confirming spot-check.');
    expect(decisionFailureSentence(rule)).toBe(
      'The decision was not saved: 3 rows have no confirming spot-check.',
    );
  });

  it('never shows a raw error object', () => {
    expect(decisionFailureSentence(new TypeError('x is undefined'))).toBe(
      'The decision was not saved: something went wrong in the page. Reload it and try again.',
    );
  });
});
