// How many rows of each reason a spot-check sample takes: stratified so that rare reasons are
// represented, the rest proportional to each reason's share. Pure; data.ts picks the rows themselves.

/** The sample size when a run asks for none. */
export const DEFAULT_SAMPLE_SIZE = 50;

/**
 * Splits a sample of `n` across reasons (reason → rows that have it): every reason present gets one row,
 * the remaining slots go proportionally to each reason's remaining rows, by largest remainder (ties: the
 * larger reason, then the name). Fewer rows than `n`: all of them. More reasons than `n`: one row each
 * for the `n` largest (a sample cannot hold them all, so it covers as many rows as it can).
 */
export function allocateSample(counts: Readonly<Record<string, number>>, n: number): Record<string, number> {
  const size = Math.max(0, Math.floor(n));
  const present = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .sort(([a, ca], [b, cb]) => cb - ca || (a < b ? -1 : a > b ? 1 : 0));
  const total = present.reduce((sum, [, count]) => sum + count, 0);
  if (total <= size) return Object.fromEntries(present);
  if (present.length >= size)
    return Object.fromEntries(present.slice(0, size).map(([reason]) => [reason, 1]));

  const rest = size - present.length;
  const restRows = total - present.length;
  // quota ≤ count − 1, so floor(quota) + 1 never exceeds a reason's rows, nor does a remainder's extra slot
  // (it only goes to a fractional quota, whose ceiling is ≤ count − 1).
  const shares = present.map(([reason, count]) => {
    const quota = (rest * (count - 1)) / restRows;
    return { reason, count, take: 1 + Math.floor(quota), remainder: quota - Math.floor(quota) };
  });
  let left = size - shares.reduce((sum, s) => sum + s.take, 0);
  // `present` is sorted by count then name, and sort is stable: ties keep that order.
  for (const share of [...shares].sort((a, b) => b.remainder - a.remainder)) {
    if (left === 0) break;
    share.take++;
    left--;
  }
  return Object.fromEntries(shares.map((s) => [s.reason, s.take]));
}
