// Runs many live checks politely: at most N at once overall and M requests at once per host, an
// optional gap between request starts on a host, a host-wide pause when it answers 429/503 with
// Retry-After, and each host's robots.txt (fetched once per run) obeyed unless the run overrides it.
// A run also has a budget (time and requests), and gives up a host that keeps answering 429/503: the
// URLs left then end as errors that say why, at once, instead of waiting the host out.
import { setMaxListeners } from 'node:events';
import { resolveOptions } from '@/lib/net/options';
import { checkLive, type LiveCheckOptions, type RequestGate } from './fetch-live';
import { fetchRobotsRules, type RobotsRules, robotsTokenOf } from './robots-rules';
import type { LiveError, LiveResult } from './types';

export interface PolitenessOptions {
  /** Checks at once over all hosts (default 20). */
  concurrency?: number;
  /** Requests at once to one host (host:port), robots.txt included (default 2). */
  perHost?: number;
  /** Least time between two request starts on one host (default 0). */
  hostDelayMs?: number;
  /** The reviewer ticked "ignore robots.txt" for this run. */
  ignoreRobots?: boolean;
  /** Default: the product token of the User-Agent. */
  robotsToken?: string;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number; index: number; result: LiveResult }) => void;
  /** Settings of every check (timeout, User-Agent, retries, guard…). */
  check?: Omit<LiveCheckOptions, 'gate' | 'signal'>;
  /** What the run may spend; unlimited when absent. */
  budget?: RunBudget;
  /** Host slots shared with other runs of this process (`sharedLanes`), so that per-host politeness holds
   * across runs; by default this call's own. */
  lanes?: LaneRegistry;
}

export interface RunBudget {
  /** Requests the run may send: pages, redirect hops, retries, probes and robots.txt all count. */
  requests?: number;
  /** Milliseconds from the start of the run after which no request starts. */
  timeMs?: number;
  /** When the run started (epoch ms; default now): a run resumed after its worker died has only what is
   * left of its time. */
  startedAt?: number;
  /** URLs of one host answering 429/503 in a row after which the run gives that host up (default 3). */
  hostRefusals?: number;
  /** @internal The clock the time budget is read with (tests). */
  now?: () => number;
}

/**
 * Resolves with one result per URL, in input order. On abort no further check starts, in-flight ones
 * are cancelled, and it rejects with the signal's reason once they have settled; `onProgress` has then
 * seen every check that completed.
 */
export function runChecks(urls: readonly string[], options: PolitenessOptions = {}): Promise<LiveResult[]> {
  const limits = {
    concurrency: whole('concurrency', options.concurrency ?? 20),
    perHost: whole('perHost', options.perHost ?? 2),
    hostDelayMs: Math.max(0, options.hostDelayMs ?? 0),
  };
  const { signal } = options;
  // Every check in flight, and every one waiting for a host's slot, listens to the run's signal: many
  // listeners at once is the design, not a leak (Node warns past 10).
  if (signal) setMaxListeners(limits.concurrency * 4 + 16, signal);
  const registry = options.lanes ?? new LaneRegistry();
  const owner = Symbol('run');
  const lanes = new Map<string, HostLane>();
  const laneOf = (url: URL) => {
    let lane = lanes.get(url.host);
    if (!lane) {
      lane = registry.join(url.host, limits.perHost, limits.hostDelayMs);
      lanes.set(url.host, lane);
    }
    return lane;
  };
  const budget = new Spending(
    options.budget,
    options.check?.maxRetryAfterMs ?? 30_000,
    options.check?.retryFallbackMs ?? 1_000,
  );
  // Waits for a slot end early when the time budget runs out or the host is given up.
  const stops = [budget.signal, ...(signal ? [signal] : [])];
  const userAgent = resolveOptions({ userAgent: options.check?.userAgent }).userAgent;
  const token = options.robotsToken ?? robotsTokenOf(userAgent);
  const robots = new Map<string, Promise<RobotsRules>>();
  const robotsOf = (url: URL) => {
    let rules = robots.get(url.origin);
    if (!rules) {
      rules = fetchRobotsRules(url.origin, {
        ...options.check,
        token,
        signal,
        acquire: async () => {
          const release = await laneOf(url).acquire(AbortSignal.any(stops), owner);
          // robots.txt is fetched whatever the budget says (one per host), but it counts.
          if (release) budget.spend();
          return release;
        },
      });
      robots.set(url.origin, rules);
    }
    return rules;
  };

  const gate: RequestGate = {
    async enter(url, checkSignal): Promise<(() => void) | LiveError> {
      const before = budget.refusal(url);
      if (before) return before;
      if (!options.ignoreRobots) {
        const refusal = (await robotsOf(url)).refusal(url);
        // A robots.txt wait cut short by the budget or a given-up host reads as that, not as cancelled.
        if (refusal) return (refusal.code === 'cancelled' && budget.refusal(url)) || refusal;
      }
      const waits = [...stops, budget.hostSignal(url), ...(checkSignal ? [checkSignal] : [])];
      const release = await laneOf(url).acquire(AbortSignal.any(waits), owner);
      const after = budget.refusal(url);
      if (after) {
        release?.();
        return after;
      }
      if (!release) return { code: 'cancelled', message: `The check of ${url.href} was cancelled` };
      budget.spend();
      return release;
    },
    backOff: (url, ms) => laneOf(url).pause(ms),
    answered: (url, status, retryAfterMs) => budget.answered(url, status, retryAfterMs),
  };

  // Checks wait in one queue per starting host and are taken round robin from hosts with room, so one
  // big host cannot fill every slot while its own limit keeps them waiting.
  const queues = new Map<string, number[]>();
  urls.forEach((url, index) => {
    const key = hostKey(url);
    const queue = queues.get(key) ?? [];
    queue.push(index);
    queues.set(key, queue);
  });
  const hosts = [...queues.keys()];
  const runningPerHost = new Map<string, number>();
  const results: LiveResult[] = new Array(urls.length);
  let cursor = 0;
  let running = 0;
  let done = 0;

  return new Promise<LiveResult[]>((resolve, reject) => {
    const leave = () => {
      budget.close();
      for (const host of lanes.keys()) registry.leave(host, limits.perHost, limits.hostDelayMs);
      lanes.clear();
    };
    const settleIfIdle = () => {
      if (running > 0) return;
      if (signal?.aborted) {
        leave();
        reject(signal.reason);
      } else if (done === urls.length) {
        leave();
        resolve(results);
      }
    };
    const start = (key: string, index: number) => {
      running++;
      runningPerHost.set(key, (runningPerHost.get(key) ?? 0) + 1);
      const url = urls[index] as string;
      checkLive(url, { ...options.check, signal, gate }).then(
        (result) => {
          running--;
          runningPerHost.set(key, (runningPerHost.get(key) ?? 1) - 1);
          if (!signal?.aborted) {
            results[index] = result;
            done++;
            options.onProgress?.({ done, total: urls.length, index, result });
          }
          dispatch();
          settleIfIdle();
        },
        (err: unknown) => {
          // checkLive throws only for programming errors; nothing sensible can go on.
          running--;
          reject(err);
        },
      );
    };
    const dispatch = () => {
      while (!signal?.aborted && running < limits.concurrency && hosts.length > 0) {
        let picked = false;
        for (let tried = 0; tried < hosts.length && !picked; tried++) {
          cursor = (cursor + 1) % hosts.length;
          const key = hosts[cursor] as string;
          const queue = queues.get(key) as number[];
          if ((runningPerHost.get(key) ?? 0) >= limits.perHost) continue;
          const index = queue.shift() as number;
          if (queue.length === 0) {
            hosts.splice(cursor, 1);
            cursor--;
          }
          start(key, index);
          picked = true;
        }
        if (!picked) return;
      }
    };
    signal?.addEventListener('abort', () => settleIfIdle(), { once: true });
    dispatch();
    settleIfIdle();
  });
}

const RATE_LIMITED = new Set([429, 503]);

/** What one run has spent: its requests, its time, and each host's run of 429/503 answers. */
class Spending {
  private readonly now: () => number;
  private readonly deadline: number;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | null = null;
  private readonly hosts = new Map<
    string,
    { streak: Set<string>; refusal: LiveError | null; stop: AbortController }
  >();
  private used = 0;
  private spent: LiveError | null = null;

  constructor(
    private readonly budget: RunBudget = {},
    private readonly maxRetryAfterMs: number,
    private readonly fallbackMs: number,
  ) {
    this.now = budget.now ?? Date.now;
    this.deadline = (budget.startedAt ?? this.now()) + (budget.timeMs ?? Number.POSITIVE_INFINITY);
    // Wakes checks waiting for a host's slot when the time is up (the clock is read again at each start).
    const left = this.deadline - this.now();
    if (left < 2 ** 31) {
      this.timer = setTimeout(() => this.controller.abort(), Math.max(0, left));
      this.timer.unref?.();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why a request to `url` must not start now, or null. */
  refusal(url: URL): LiveError | null {
    const host = this.hosts.get(url.host)?.refusal;
    if (host) return host;
    if (this.spent) return this.spent;
    if (this.now() >= this.deadline) {
      this.spent = {
        code: 'budget_spent',
        message: `the run's time budget of ${duration(this.budget.timeMs ?? 0)} was spent before this URL was checked`,
      };
    } else if (this.used >= (this.budget.requests ?? Number.POSITIVE_INFINITY)) {
      this.spent = {
        code: 'budget_spent',
        message: `the run's budget of ${(this.budget.requests ?? 0).toLocaleString('en-US')} requests was spent before this URL was checked`,
      };
    }
    if (this.spent) this.controller.abort();
    return this.spent;
  }

  spend(): void {
    this.used++;
  }

  hostSignal(url: URL): AbortSignal {
    return this.host(url.host).stop.signal;
  }

  /** Counts the URLs of a host answering 429/503 in a row with a wait (a URL's own retries count once,
   * so a page that is rate limited while its host answers others stays that page's answer); gives the
   * host up (and says why) after `hostRefusals` of them, or at once when it asks for a longer wait than a run waits or
   * than the run has left. */
  answered(url: URL, status: number, retryAfterMs: number | undefined): LiveError | null {
    const host = this.host(url.host);
    if (host.refusal) return host.refusal;
    if (!RATE_LIMITED.has(status)) {
      host.streak.clear();
      return null;
    }
    // A refusal that asks for no wait costs the run nothing but requests (the request budget caps those):
    // the page's own retries judge it. One that makes the run wait counts towards giving the host up.
    if ((retryAfterMs ?? this.fallbackMs) > 0) host.streak.add(url.href);
    const limit = Math.max(1, this.budget.hostRefusals ?? 3);
    const asked = retryAfterMs === undefined ? 'no Retry-After' : `Retry-After ${duration(retryAfterMs)}`;
    const left = this.deadline - this.now();
    let why: string | null = null;
    if (host.streak.size >= limit) {
      why = `kept refusing: ${host.streak.size} URLs in a row answered 429 or 503 (the last ${status}, with ${asked})`;
    } else if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs) {
      why = `refused: it answered ${status} with ${asked}, longer than the ${duration(this.maxRetryAfterMs)} a run waits`;
    } else if (retryAfterMs !== undefined && retryAfterMs >= left) {
      why = `refused: it answered ${status} with ${asked}, longer than the ${duration(left)} left in the run's time budget`;
    }
    if (!why) return null;
    host.refusal = {
      code: 'host_refused',
      message: `${url.host} ${why}; the run gave the host up and did not wait it out`,
    };
    host.stop.abort();
    return host.refusal;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private host(name: string) {
    let host = this.hosts.get(name);
    if (!host) {
      host = { streak: new Set<string>(), refusal: null, stop: new AbortController() };
      this.hosts.set(name, host);
    }
    return host;
  }
}

function duration(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds >= 120 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/**
 * Host lanes by host (and limits), shared by the runs that use them: a host gets its per-host limit, its
 * start gap and its Retry-After pause once, however many runs check it at the same time.
 */
export class LaneRegistry {
  private readonly lanes = new Map<string, { lane: HostLane; users: number }>();

  join(host: string, perHost: number, delayMs: number): HostLane {
    const key = `${host}|${perHost}|${delayMs}`;
    let entry = this.lanes.get(key);
    if (!entry) {
      entry = { lane: new HostLane(perHost, delayMs), users: 0 };
      this.lanes.set(key, entry);
    }
    entry.users++;
    return entry.lane;
  }

  leave(host: string, perHost: number, delayMs: number): void {
    const key = `${host}|${perHost}|${delayMs}`;
    const entry = this.lanes.get(key);
    if (!entry) return;
    entry.users--;
    if (entry.users > 0) return;
    const drop = () => {
      if (entry.users > 0 || this.lanes.get(key) !== entry) return;
      entry.lane.close();
      this.lanes.delete(key);
    };
    // A host still paused keeps its lane until the pause is over, so a run starting meanwhile waits out
    // the Retry-After too.
    const pausedFor = entry.lane.pausedFor();
    if (pausedFor > 0) setTimeout(drop, pausedFor).unref?.();
    else drop();
  }
}

/** The lanes of every run of this process (the worker runs several spot-checks at once). */
export const sharedLanes = new LaneRegistry();

/** One host's request slots, start gap and Retry-After pause, handed out round robin between runs so that
 * a run with a few URLs on a host is not queued behind every URL of a big run on the same host. */
class HostLane {
  private active = 0;
  private nextStartAt = 0;
  private pausedUntil = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly waiters: { owner: symbol; go: () => void }[] = [];
  private readonly servedAt = new Map<symbol, number>();
  private served = 0;

  constructor(
    private readonly perHost: number,
    private readonly delayMs: number,
  ) {}

  /** Milliseconds left of the host's Retry-After pause (0 when none). */
  pausedFor(): number {
    return Math.max(0, this.pausedUntil - Date.now());
  }

  /** Resolves with the slot's release, or with null when `signal` aborts first. */
  acquire(signal: AbortSignal | undefined, owner: symbol = NOBODY): Promise<(() => void) | null> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(null);
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(null);
      };
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          this.pump();
        });
      };
      const waiter = { owner, go };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private pump(): void {
    while (this.waiters.length > 0 && this.active < this.perHost) {
      const wait = Math.max(this.nextStartAt, this.pausedUntil) - Date.now();
      if (wait > 0) {
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
        return;
      }
      this.active++;
      this.nextStartAt = Date.now() + this.delayMs;
      // The waiter of the run served longest ago (first come among equals).
      let pick = 0;
      for (let i = 1; i < this.waiters.length; i++) {
        const last = (w: number) => this.servedAt.get((this.waiters[w] as { owner: symbol }).owner) ?? -1;
        if (last(i) < last(pick)) pick = i;
      }
      const [waiter] = this.waiters.splice(pick, 1) as [{ owner: symbol; go: () => void }];
      this.servedAt.set(waiter.owner, ++this.served);
      if (!this.waiters.some((w) => w.owner === waiter.owner)) this.servedAt.delete(waiter.owner);
      waiter.go();
    }
  }
}

const NOBODY = Symbol('nobody');

function hostKey(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function whole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}
