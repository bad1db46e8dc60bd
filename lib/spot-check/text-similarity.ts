// "Near-identical text" for soft-404 detection: Jaccard similarity of word 5-gram shingles, estimated
// from a bottom-k sketch (the 128 smallest shingle hashes). A page with fewer than 128 shingles keeps
// them all, so short pages (what error pages are) compare exactly; the sketch stays about 1 KB.
const SHINGLE_WORDS = 5;
const SKETCH_SIZE = 128;
const PREFIX = 'w5k128:';

/** The similarity at or above which two pages count as the same page. */
export const NEAR_IDENTICAL = 0.9;

/** A bottom-k sketch of the text's word shingles, as text to store; null when there are no words. */
export function fingerprintOf(text: string): string | null {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const hashes = new Set<number>();
  // A text shorter than one shingle is a single shingle of all its words.
  const last = Math.max(0, words.length - SHINGLE_WORDS);
  for (let i = 0; i <= last; i++) hashes.add(fnv1a(words.slice(i, i + SHINGLE_WORDS).join(' ')));
  const smallest = [...hashes].sort((a, b) => a - b).slice(0, SKETCH_SIZE);
  return PREFIX + smallest.map((h) => h.toString(16).padStart(8, '0')).join('');
}

/** Estimated Jaccard similarity (0–1) of the texts behind two fingerprints; 0 when either is unreadable. */
export function similarity(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (left.length === 0 || right.length === 0) return 0;
  const inRight = new Set(right);
  const inLeft = new Set(left);
  const union = [...new Set([...left, ...right])].sort((x, y) => x - y).slice(0, SKETCH_SIZE);
  const shared = union.filter((h) => inLeft.has(h) && inRight.has(h)).length;
  return shared / union.length;
}

function parse(fingerprint: string): number[] {
  if (!fingerprint.startsWith(PREFIX)) return [];
  const hex = fingerprint.slice(PREFIX.length);
  const out: number[] = [];
  for (let i = 0; i + 8 <= hex.length; i += 8) out.push(Number.parseInt(hex.slice(i, i + 8), 16));
  return out;
}

// FNV-1a over UTF-16 code units: fast, and stable across versions (fingerprints are stored).
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
