// URL Inspection's verdict codes in words, as Search Console's own page says them: the API answers
// "PASS" or "NEUTRAL", which a reviewer should not have to decode. Pure, isomorphic.

const VERDICT_WORDS: Record<string, string> = {
  PASS: 'valid',
  PARTIAL: 'valid with warnings',
  FAIL: 'error',
  NEUTRAL: 'excluded',
};

/** Google's verdict in words, or null when it said none (VERDICT_UNSPECIFIED); an unknown code in lower case. */
export function inspectionVerdictWords(verdict: string | null): string | null {
  if (!verdict || verdict === 'VERDICT_UNSPECIFIED') return null;
  return VERDICT_WORDS[verdict] ?? verdict.toLowerCase().replace(/_/g, ' ');
}
