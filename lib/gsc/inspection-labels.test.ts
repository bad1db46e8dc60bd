import { describe, expect, it } from 'vitest';
import { inspectionVerdictWords } from './inspection-labels';

describe('inspectionVerdictWords', () => {
  it('says the API’s verdict codes in Search Console’s words', () => {
    expect(inspectionVerdictWords('PASS')).toBe('valid');
    expect(inspectionVerdictWords('NEUTRAL')).toBe('excluded');
    expect(inspectionVerdictWords('FAIL')).toBe('error');
    expect(inspectionVerdictWords('PARTIAL')).toBe('valid with warnings');
  });

  it('says nothing for no verdict, and a new code in lower case words', () => {
    expect(inspectionVerdictWords(null)).toBeNull();
    expect(inspectionVerdictWords('VERDICT_UNSPECIFIED')).toBeNull();
    expect(inspectionVerdictWords('SOME_NEW_CODE')).toBe('some new code');
  });
});
