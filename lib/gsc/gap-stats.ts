// The per-sitemap gap's arithmetic: the known gap, the estimate with a 95 % Wilson
// interval when a random sample (URL Inspection) is all that is known of part of a file, the band, and the
// Sitemaps report's flags. Pure: lib/gsc/gaps.ts feeds it the grouped counts the database returns.
import { wilson } from '@/lib/spot-check/stats';

/** `insufficient`: too little of the file is known to judge it ("not enough data"), never "normal". */
export type GapBand = 'normal' | 'investigate' | 'problem' | 'insufficient';
export type GapBasis = 'known' | 'estimate';

/** Under this share of submitted URLs not indexed is normal; from it up to PROBLEM_SHARE, investigate. */
export const INVESTIGATE_SHARE = 0.1;
/** Over this share is a problem (30 % itself is still "investigate", as the issue writes "over 30 %"). */
export const PROBLEM_SHARE = 0.3;
/** Under this share of a file's submitted URLs known (indexed + not indexed), its gap says nothing: 5
 * known of 1,352 with none of them not indexed is 0 %, which is no evidence of a normal file. */
export const MIN_KNOWN_SHARE = 0.1;
/** A sitemap Google last read more than this many days before the import's date is flagged stale. */
const STALE_DAYS = 14;

export function bandOf(share: number): GapBand {
  // Rounded to 12 digits so 3/10 computed as 0.30000000000000004 is 30 %, not over it.
  const s = Math.round(share * 1e12) / 1e12;
  if (s < INVESTIGATE_SHARE) return 'normal';
  if (s <= PROBLEM_SHARE) return 'investigate';
  return 'problem';
}

/** What is known of one file's distinct declared keys. */
export interface FileCounts {
  submitted: number;
  indexed: number;
  notIndexed: number;
  /** Of those known, the keys URL Inspection inspected (a random sample), and how many of them are not indexed. */
  sampled: number;
  sampledNotIndexed: number;
}

export interface Gap {
  unknown: number;
  /** notIndexed / submitted: what is known for certain (null when nothing was submitted). */
  gapPct: number | null;
  /** The estimate's 95 % interval of the file's not-indexed share; null when the gap is known, not estimated. */
  gapLow: number | null;
  gapHigh: number | null;
  /** The share the band is judged on: the estimate when there is one, else gapPct. */
  judged: number | null;
  band: GapBand | null;
  basis: GapBasis;
}

/**
 * The gap of one file. When part of the file is unknown and some of it was inspected, the sample's
 * not-indexed share (Wilson, 95 %) is the estimate for the whole file, clipped to what is certain: at
 * least the known not-indexed URLs, at most every URL not known to be indexed. Drill-down exports are
 * not a sample (they list URLs because they are not indexed), so only inspections make an estimate.
 */
export function gapOf(c: FileCounts): Gap {
  const unknown = Math.max(0, c.submitted - c.indexed - c.notIndexed);
  if (c.submitted <= 0) {
    return { unknown, gapPct: null, gapLow: null, gapHigh: null, judged: null, band: null, basis: 'known' };
  }
  const gapPct = c.notIndexed / c.submitted;
  const thin = c.indexed + c.notIndexed < MIN_KNOWN_SHARE * c.submitted;
  if (unknown === 0 || c.sampled === 0) {
    return {
      unknown,
      gapPct,
      gapLow: null,
      gapHigh: null,
      judged: gapPct,
      band: thin ? 'insufficient' : bandOf(gapPct),
      basis: 'known',
    };
  }
  const { value, low, high } = wilson(c.sampledNotIndexed, c.sampled);
  const floor = gapPct;
  const ceiling = (c.submitted - c.indexed) / c.submitted;
  const clip = (x: number) => Math.min(ceiling, Math.max(floor, x));
  const judged = clip(value ?? 0);
  const gapLow = clip(low ?? 0);
  // A thin file stays "not enough data" unless its random sample alone shows a gap: the whole 95 %
  // interval at or over 10 % is evidence of a problem however few URLs it rests on; anything lower
  // (a normal-looking sample of a few URLs) is not evidence of a normal file.
  const shown = !thin || bandOf(gapLow) !== 'normal';
  return {
    unknown,
    gapPct,
    gapLow,
    gapHigh: clip(high ?? 1),
    judged,
    band: shown ? bandOf(judged) : 'insufficient',
    basis: 'estimate',
  };
}

/** Search Console's word for a sitemap it read without trouble, in the languages lib/gsc reads. */
const SUCCESS = new Set([
  'success',
  'succès',
  'réussite',
  'reussite',
  'erfolgreich',
  'correcto',
  'éxito',
  'exito',
]);

/** Anything but success is a fetch problem ("Couldn't fetch", "Has errors", "General HTTP error"…); no
 * status at all (a report without the column) says nothing. */
export function isFetchProblem(status: string | null): boolean {
  if (status === null || status.trim() === '') return false;
  return !SUCCESS.has(status.trim().toLowerCase());
}

/** Days from `from` to `to` (both YYYY-MM-DD). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Last read more than STALE_DAYS before the import's date (the day Search Console said it), not today:
 * an old import is old as a whole, and its date is shown beside it. */
export function isStale(lastRead: string | null, importedOn: string): boolean {
  return lastRead !== null && daysBetween(lastRead, importedOn) > STALE_DAYS;
}
