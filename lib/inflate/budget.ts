// One upload's budget of inflated bytes: every reader that decompresses what a user sent (a Search Console
// import's zips and CSVs, a sitemap upload's files, a crawl export's gzip) counts the bytes it actually
// produced here, chunk by chunk, and stops at the first byte over. Sizes a file or a zip directory
// declares are only used to refuse early, never to allow. Pure: readers pass the limit they read.

export interface InflateBudgetOptions {
  /** Bytes accepted, all files of the upload together. */
  limit: number;
  /** The environment variable that sets it, named in every refusal so an operator knows what to raise. */
  setting: string;
  /** What the budget covers, in refusals ("this import", "the audit's uploads"). */
  scope: string;
}

/** Over the budget: names the file being read, the limit and its setting. The message is safe to show;
 * `reason` is the same without the file's name, for readers that name it their own way. */
export class InflateBudgetError extends Error {
  constructor(
    readonly file: string,
    readonly limit: number,
    readonly setting: string,
    readonly reason: string,
  ) {
    super(`${file} ${reason}`);
    this.name = 'InflateBudgetError';
  }
}

export class InflateBudget {
  private used = 0;

  constructor(readonly options: InflateBudgetOptions) {}

  get spent(): number {
    return this.used;
  }

  get remaining(): number {
    return Math.max(0, this.options.limit - this.used);
  }

  /** Counts `bytes` inflated from `file`; throws once the upload's total passes the limit. */
  count(file: string, bytes: number): void {
    this.used += bytes;
    if (this.used > this.options.limit) throw this.refusal(file);
  }

  /** Throws when `bytes` more (a size a header declares) cannot fit; counts nothing. */
  ensureRoom(file: string, bytes: number): void {
    if (this.used + bytes > this.options.limit) throw this.refusal(file, bytes);
  }

  private refusal(file: string, declared?: number): InflateBudgetError {
    const { limit, setting, scope } = this.options;
    const whole = `the ${formatBytes(limit)} of uncompressed data ${scope} may hold (${setting})`;
    const reason =
      declared === undefined
        ? `inflates past ${whole}`
        : `declares ${formatBytes(declared)} uncompressed, more than the ${formatBytes(this.remaining)} left of ${whole}`;
    return new InflateBudgetError(file, limit, setting, reason);
  }
}

/**
 * Counts each chunk into the budget as it passes: wrap the inflated stream of one file. A chunk that
 * passes the limit is not yielded.
 */
export async function* countedChunks<T extends Uint8Array>(
  chunks: AsyncIterable<T>,
  budget: InflateBudget,
  file: string,
): AsyncGenerator<T> {
  for await (const chunk of chunks) {
    budget.count(file, chunk.length);
    yield chunk;
  }
}

/** A byte budget from the environment: a whole number of bytes, at least 1; unset or empty → fallback. */
export function budgetBytesFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number of bytes, at least 1, got "${raw}"`);
  }
  return value;
}

export function formatBytes(bytes: number): string {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  if (bytes >= GiB) return `${Math.round((bytes / GiB) * 10) / 10} GiB`;
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}
