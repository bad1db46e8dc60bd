// Finds a lastmod value shared by most of a file's entries in constant memory: the Misra-Gries summary
// with K counters keeps every value more frequent than n/(K+1) and undercounts it by at most n/(K+1),
// so "at least" is a safe lower bound (a file is only flagged when the bound itself passes 90%).
const K = 16;

export class LastmodTally {
  private readonly counters = new Map<string, number>();

  add(value: string): void {
    const counters = this.counters;
    const count = counters.get(value);
    if (count !== undefined) counters.set(value, count + 1);
    else if (counters.size < K) counters.set(value, 1);
    else {
      for (const [key, n] of counters) {
        if (n === 1) counters.delete(key);
        else counters.set(key, n - 1);
      }
    }
  }

  /** The most frequent value and a lower bound of its count; null when no value was added. */
  dominant(): { value: string; atLeast: number } | null {
    let best: { value: string; atLeast: number } | null = null;
    for (const [value, atLeast] of this.counters)
      if (!best || atLeast > best.atLeast) best = { value, atLeast };
    return best;
  }
}
