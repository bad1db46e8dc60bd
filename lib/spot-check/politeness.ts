// Runs many live checks politely: at most N at once overall and M requests at once per host, an
// optional gap between request starts on a host, a host-wide pause when it answers 429/503 with
// Retry-After, and each host's robots.txt (fetched once per run) obeyed unless the run overrides it.
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
  const lanes = new Map<string, HostLane>();
  const laneOf = (url: URL) => {
    let lane = lanes.get(url.host);
    if (!lane) {
      lane = new HostLane(limits.perHost, limits.hostDelayMs);
      lanes.set(url.host, lane);
    }
    return lane;
  };
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
        acquire: () => laneOf(url).acquire(signal),
      });
      robots.set(url.origin, rules);
    }
    return rules;
  };

  const gate: RequestGate = {
    async enter(url, checkSignal): Promise<(() => void) | LiveError> {
      if (!options.ignoreRobots) {
        const refusal = (await robotsOf(url)).refusal(url);
        if (refusal) return refusal;
      }
      const release = await laneOf(url).acquire(checkSignal);
      return release ?? { code: 'cancelled', message: `The check of ${url.href} was cancelled` };
    },
    backOff: (url, ms) => laneOf(url).pause(ms),
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
    const settleIfIdle = () => {
      if (running > 0) return;
      if (signal?.aborted) {
        for (const lane of lanes.values()) lane.close();
        reject(signal.reason);
      } else if (done === urls.length) {
        for (const lane of lanes.values()) lane.close();
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

/** One host's request slots, start gap and Retry-After pause. */
class HostLane {
  private active = 0;
  private nextStartAt = 0;
  private pausedUntil = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly perHost: number,
    private readonly delayMs: number,
  ) {}

  /** Resolves with the slot's release, or with null when `signal` aborts first. */
  acquire(signal: AbortSignal | undefined): Promise<(() => void) | null> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve(null);
      const onAbort = () => {
        const at = this.waiters.indexOf(go);
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
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(go);
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
      (this.waiters.shift() as () => void)();
    }
  }
}

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
