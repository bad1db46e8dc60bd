// What fetching a sitemap tree may cost: each file gets FETCH_TIMEOUT_MS for the whole fetch
// (retries, redirects and a slow-drip body included), and the audit as a whole a time and a byte
// budget. When the audit's budget is spent every fetch under way stops and the walk records the
// files it has not read as skipped, so a hostile index costs minutes, not hours.
import type { WalkLimits } from './limits';

export type BudgetErrorCode = 'timeout' | 'audit_budget_spent';

/** A file stopped by a budget; the message is safe to show a user. */
export class FetchBudgetError extends Error {
  constructor(
    readonly code: BudgetErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FetchBudgetError';
  }
}

/** One file's fetch: the signal to pass down, and how to name a failure it caused. */
export interface FileFetch {
  signal: AbortSignal;
  /** The budget error when a budget stopped the fetch, else `error` unchanged. */
  explain(error: unknown): unknown;
}

function duration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

function size(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

export class FetchBudget {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private bytes = 0;
  /** Why the audit's budget is spent; null while it is not. */
  reason: string | null = null;

  constructor(
    private readonly limits: Pick<WalkLimits, 'auditFetchMs' | 'auditFetchBytes' | 'fetchTimeoutMs'>,
  ) {
    this.timer = setTimeout(
      () =>
        this.spend(
          `the audit's fetch time budget of ${duration(limits.auditFetchMs)} (SITEMAP_AUDIT_FETCH_MS) is spent`,
        ),
      limits.auditFetchMs,
    );
    this.timer.unref();
  }

  get spent(): boolean {
    return this.reason !== null;
  }

  get fetchedBytes(): number {
    return this.bytes;
  }

  /** Counts bytes received; passing the audit's byte budget stops every fetch. */
  add(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.limits.auditFetchBytes) {
      this.spend(
        `the audit's fetch budget of ${size(this.limits.auditFetchBytes)} (SITEMAP_AUDIT_FETCH_BYTES) is spent`,
      );
    }
  }

  /** Starts one file's clock; `stops` are signals that end the fetch for other reasons (cancel). */
  file(stops: (AbortSignal | undefined)[]): FileFetch {
    const timeoutMs = this.limits.fetchTimeoutMs;
    const clock = AbortSignal.timeout(timeoutMs);
    const others = stops.filter((s): s is AbortSignal => s !== undefined);
    return {
      signal: AbortSignal.any([clock, this.controller.signal, ...others]),
      explain: (error) => {
        if (others.some((s) => s.aborted)) return error;
        if (this.reason !== null)
          return new FetchBudgetError('audit_budget_spent', `Not read: ${this.reason}`);
        if (clock.aborted) {
          return new FetchBudgetError(
            'timeout',
            `The fetch took longer than ${duration(timeoutMs)} (FETCH_TIMEOUT_MS, the budget per file, retries, redirects and the whole body included)`,
          );
        }
        return error;
      },
    };
  }

  close(): void {
    clearTimeout(this.timer);
  }

  private spend(reason: string): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.controller.abort();
  }
}

/** Counts a body's bytes against the budget and names a budget that stops it. */
export async function* metered(
  body: AsyncIterable<Uint8Array>,
  budget: FetchBudget,
  fetch: FileFetch,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) {
      budget.add(chunk.length);
      yield chunk;
    }
  } catch (error) {
    throw fetch.explain(error);
  }
}
