// The crawl's politeness per host (host:port): how many requests are in flight, how far apart they start
// (robots.txt's Crawl-delay), how long the host is left alone after a 429/503, when it is given up; and the
// crawl-wide safeguard that stops a crawl whose recent requests mostly fail. The clock and the sleep are
// injectable, so tests run on a fake clock and never wait.

export interface Clock {
  now(): number;
  /** Resolves after `ms` (or early, when `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        signal?.removeEventListener('abort', done);
        clearTimeout(timer);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** What one request found, as far as politeness cares. */
export interface RequestOutcome {
  url: string;
  status: number | null;
  retryAfterMs: number | null;
  /** Set when there was no answer (network error, timeout, refused by the SSRF guard…). */
  error: { code: string; message: string } | null;
}

export interface LaneSettings {
  concurrencyPerHost: number;
  /** A Retry-After longer than this gives the host up rather than waiting it out (default 60 s). */
  maxRetryAfterMs?: number;
  /** The pause after a 429/503 without Retry-After (default 2 s). */
  fallbackPauseMs?: number;
  /** 429/503 answers in a row after which the host is given up (default 5). */
  maxRefusals?: number;
  /** The safeguard: over the last `window` requests of the crawl (default 50), at least `ratio` failed
   * (default 0.8) stops the crawl. */
  safeguard?: { window: number; ratio: number };
  clock?: Clock;
}

export type StopReason = 'host_refused' | 'failing';

/** A slot: call `release` once with what the request found (null: it was never sent, or was cancelled). */
export interface Slot {
  release(outcome: RequestOutcome | null): { stop: StopReason | null; message: string | null };
}

export type Acquired = Slot | { refused: StopReason; message: string } | null;

const RATE_LIMITED = new Set([429, 503]);

interface Waiter {
  resolve: (value: Acquired) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface Lane {
  host: string;
  active: number;
  nextStartAt: number;
  pausedUntil: number;
  crawlDelayMs: number;
  waiters: Waiter[];
  wakeAt: number | null;
  refusals: number;
  refused: string | null;
}

export class HostLanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly clock: Clock;
  private readonly closing = new AbortController();
  private readonly maxRetryAfterMs: number;
  private readonly fallbackPauseMs: number;
  private readonly maxRefusals: number;
  private readonly window: number;
  private readonly ratio: number;
  /** The last `window` outcomes, as a ring: what failed (a short description) or null. */
  private readonly recent: (string | null)[] = [];
  private recentAt = 0;
  private failures = 0;
  private failingMessage: string | null = null;

  constructor(private readonly settings: LaneSettings) {
    if (!Number.isInteger(settings.concurrencyPerHost) || settings.concurrencyPerHost < 1) {
      throw new RangeError('concurrencyPerHost must be a positive integer');
    }
    this.clock = settings.clock ?? realClock;
    this.maxRetryAfterMs = settings.maxRetryAfterMs ?? 60_000;
    this.fallbackPauseMs = settings.fallbackPauseMs ?? 2_000;
    this.maxRefusals = Math.max(1, settings.maxRefusals ?? 5);
    this.window = Math.max(1, settings.safeguard?.window ?? 50);
    this.ratio = settings.safeguard?.ratio ?? 0.8;
  }

  /** robots.txt's Crawl-delay for the host: the least time between two request starts, one at a time. */
  setCrawlDelay(host: string, ms: number | null): void {
    const lane = this.lane(host);
    lane.crawlDelayMs = ms !== null && ms > 0 ? ms : 0;
  }

  /** Why the host was given up, or null. */
  refusedHost(host: string): string | null {
    return this.lanes.get(host)?.refused ?? null;
  }

  /** Why the safeguard stopped the crawl, or null. */
  get failing(): string | null {
    return this.failingMessage;
  }

  /** Waits for a request slot on `host`. Null when `signal` aborts first; a refusal when the host was given
   * up or the safeguard tripped (then nothing starts any more). */
  acquire(host: string, signal?: AbortSignal): Promise<Acquired> {
    const lane = this.lane(host);
    if (this.failingMessage) return Promise.resolve({ refused: 'failing', message: this.failingMessage });
    if (lane.refused) return Promise.resolve({ refused: 'host_refused', message: lane.refused });
    if (signal?.aborted || this.closing.signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        signal,
        onAbort: () => {
          const at = lane.waiters.indexOf(waiter);
          if (at >= 0) lane.waiters.splice(at, 1);
          resolve(null);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      lane.waiters.push(waiter);
      this.pump(lane);
    });
  }

  /** Ends every wait (each resolves null) and every pending wake-up. */
  close(): void {
    this.closing.abort();
    for (const lane of this.lanes.values()) {
      for (const waiter of lane.waiters.splice(0)) this.hand(waiter, null);
    }
  }

  private lane(host: string): Lane {
    let lane = this.lanes.get(host);
    if (!lane) {
      lane = {
        host,
        active: 0,
        nextStartAt: 0,
        pausedUntil: 0,
        crawlDelayMs: 0,
        waiters: [],
        wakeAt: null,
        refusals: 0,
        refused: null,
      };
      this.lanes.set(host, lane);
    }
    return lane;
  }

  private hand(waiter: Waiter, value: Acquired): void {
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.resolve(value);
  }

  private pump(lane: Lane): void {
    if (this.closing.signal.aborted) return;
    // With a Crawl-delay the host gets one request at a time: the delay is the gap between them.
    const limit = lane.crawlDelayMs > 0 ? 1 : this.settings.concurrencyPerHost;
    while (lane.waiters.length > 0 && lane.active < limit) {
      const now = this.clock.now();
      const readyAt = Math.max(lane.nextStartAt, lane.pausedUntil);
      if (readyAt > now) {
        if (lane.wakeAt === null || lane.wakeAt > readyAt) {
          lane.wakeAt = readyAt;
          this.clock.sleep(readyAt - now, this.closing.signal).then(() => {
            if (lane.wakeAt === readyAt) lane.wakeAt = null;
            this.pump(lane);
          });
        }
        return;
      }
      lane.active++;
      lane.nextStartAt = now + lane.crawlDelayMs;
      const waiter = lane.waiters.shift() as Waiter;
      this.hand(waiter, this.slot(lane));
    }
  }

  private slot(lane: Lane): Slot {
    let released = false;
    return {
      release: (outcome) => {
        if (released) return { stop: null, message: null };
        released = true;
        lane.active--;
        const verdict = outcome ? this.answered(lane, outcome) : { stop: null, message: null };
        this.pump(lane);
        return verdict;
      },
    };
  }

  private answered(lane: Lane, outcome: RequestOutcome): { stop: StopReason | null; message: string | null } {
    this.remember(outcome);
    if (this.failingMessage) return { stop: 'failing', message: this.failingMessage };
    if (outcome.status === null || !RATE_LIMITED.has(outcome.status)) {
      if (outcome.status !== null) lane.refusals = 0;
      return { stop: null, message: null };
    }
    lane.refusals++;
    const wait = outcome.retryAfterMs ?? this.fallbackPauseMs;
    const asked =
      outcome.retryAfterMs === null ? 'no Retry-After' : `Retry-After ${seconds(outcome.retryAfterMs)}`;
    let why: string | null = null;
    if (outcome.retryAfterMs !== null && outcome.retryAfterMs > this.maxRetryAfterMs) {
      why = `answered ${outcome.status} with ${asked}, longer than the ${seconds(this.maxRetryAfterMs)} a crawl waits`;
    } else if (lane.refusals >= this.maxRefusals) {
      why = `answered 429 or 503 to ${lane.refusals} requests in a row (the last ${outcome.status}, with ${asked})`;
    }
    if (why === null) {
      lane.pausedUntil = Math.max(lane.pausedUntil, this.clock.now() + wait);
      return { stop: null, message: null };
    }
    lane.refused = `${lane.host} ${why}; the crawl gave the host up instead of waiting it out (last: ${outcome.url})`;
    for (const waiter of lane.waiters.splice(0)) {
      this.hand(waiter, { refused: 'host_refused', message: lane.refused });
    }
    return { stop: 'host_refused', message: lane.refused };
  }

  /** Adds an outcome to the window and trips the safeguard when the window is full and mostly failures. */
  private remember(outcome: RequestOutcome): void {
    const failed = outcome.error
      ? outcome.error.code
      : outcome.status !== null && outcome.status >= 500
        ? `HTTP ${outcome.status}`
        : null;
    if (this.recent.length < this.window) this.recent.push(failed);
    else {
      if (this.recent[this.recentAt] !== null) this.failures--;
      this.recent[this.recentAt] = failed;
      this.recentAt = (this.recentAt + 1) % this.window;
    }
    if (failed !== null) this.failures++;
    if (this.failingMessage || this.recent.length < this.window) return;
    if (this.failures < Math.ceil(this.ratio * this.window)) return;
    const kinds = new Map<string, number>();
    for (const kind of this.recent) if (kind !== null) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    const list = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, count]) => `${count} ${kind}`)
      .join(', ');
    const last = outcome.error ? outcome.error.message : `${outcome.url} answered ${outcome.status}`;
    this.failingMessage = `The crawl stopped: ${this.failures} of its last ${this.window} requests failed (${list}); the last: ${last}`;
    for (const lane of this.lanes.values()) {
      for (const waiter of lane.waiters.splice(0)) {
        this.hand(waiter, { refused: 'failing', message: this.failingMessage });
      }
    }
  }
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.ceil(ms / 1000))} s`;
}
