// The crawl itself, database-free: breadth first from the start URL (site mode) or over the declared URLs
// (list mode), each URL once, robots.txt obeyed, each host paced by its lane, the limits cutting instead of
// admitting, and everything found handed to the CrawlStore in flushes, so a crawl whose worker dies resumes
// from the last flush and loses only the pages fetched since.
import { setMaxListeners } from 'node:events';
import type { RobotsRules } from '@/lib/spot-check/robots-rules';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { Flusher } from './flusher';
import { type AdmitKind, Frontier, type QueuedItem } from './frontier';
import {
  type Clock,
  HostLanes,
  type LaneSettings,
  type RequestOutcome,
  realClock,
  type StopReason,
} from './lanes';
import { CrawlScope, type FrontierUrl } from './scope';
import {
  type CrawlerSettings,
  type CrawlProgress,
  type CrawlStore,
  type CutReason,
  type FrontierItem,
  type PageFetch,
  type PageFetcher,
  unanswered,
} from './types';

/** robots.txt rules; `crawlDelayMs` is the host's Crawl-delay for our agent (null: none). */
export type CrawlRobots = RobotsRules & { crawlDelayMs?: number | null };

/** Pages of one path pattern (digits as *) found on pages of that same pattern before more are cut: a
 * fifth of the page limit, so a real catalogue (/product/123 linking /product/456) is crawled while a
 * calendar or a numbered trap cannot take the whole budget. */
export function defaultPatternBudget(maxPages: number): number {
  return Math.max(2_000, Math.ceil(maxPages / 5));
}

/** Query strings on one path (pagination, sorts, facets) before more are cut. */
export const DEFAULT_QUERY_VARIANTS = 200;

export interface CrawlRun {
  /** `startUrl` must be set in site mode (the caller resolves the default). */
  settings: CrawlerSettings;
  /** List mode: the declared URLs, in order (one array, or batches as they are read). A resumed crawl is
   * given the whole list again: what was admitted before is skipped by its key. */
  seeds?: readonly string[] | AsyncIterable<readonly string[]>;
  /** host:port the crawl may fetch (the start URL's host joins it). */
  scopeHosts: readonly string[];
  profile: NormalizationProfile;
  fetcher: PageFetcher;
  /** An origin's robots.txt rules; called once per origin, inside one of its host's request slots. */
  robots: (origin: string, signal: AbortSignal) => Promise<CrawlRobots>;
  store: CrawlStore;
  signal?: AbortSignal;
  /** Called after each flush is saved, with the totals it saved. */
  onFlush?: (progress: CrawlProgress) => void;
  /** A flush every this many pages (default 200) or this long after the first unsaved page (default 1 s). */
  flushEveryPages?: number;
  flushEveryMs?: number;
  /** Pages per path pattern (default 2,000) and query strings per path (default 50). */
  trap?: { patternBudget?: number; queryVariants?: number };
  politeness?: Omit<LaneSettings, 'concurrencyPerHost' | 'clock'>;
  clock?: Clock;
}

/** How often a URL answered 429/503 with a wait is asked again before that answer is its row. */
const MAX_ATTEMPTS = 3;
/** List mode reads more declared URLs while fewer than this many wait. */
const FEED_LOW = 5_000;
const FEED_CHUNK = 1_000;

/**
 * Resolves with the final totals once everything admitted is fetched or cut and the last flush is saved
 * (`stopped` says when the crawl ended early). On abort, in-flight requests are cancelled, a save under way
 * is awaited, nothing more is saved, and it rejects with the signal's reason; a failing save rejects with
 * its error the same way. Either way a later run resumes from what was saved.
 */
export async function runCrawl(run: CrawlRun): Promise<CrawlProgress> {
  const crawl = new Crawl(run);
  return crawl.start();
}

class Crawl {
  private readonly clock: Clock;
  private readonly scope: CrawlScope;
  private readonly frontier: Frontier;
  private readonly lanes: HostLanes;
  private readonly inner = new AbortController();
  private readonly robots = new Map<string, Promise<CrawlRobots | null>>();
  private readonly concurrency: number;
  private joined: string[] = [];
  /** The start URL, then each of its redirect targets: a host it redirects to joins the scope. */
  private chainKey: string | null = null;
  private fetched = 0;
  private requests = 0;
  private byStatus: Record<string, number> = {};
  private stopped: CrawlProgress['stopped'] = null;
  private halted: CutReason | null = null;
  private error: unknown = null;
  private running = 0;
  private readonly flusher: Flusher;
  private finished = false;
  private feedWaiter: (() => void) | null = null;
  private settle!: { resolve: (p: CrawlProgress) => void; reject: (e: unknown) => void };

  constructor(private readonly run: CrawlRun) {
    const { settings } = run;
    this.clock = run.clock ?? realClock;
    this.scope = new CrawlScope(run.scopeHosts);
    this.concurrency = settings.concurrencyPerHost;
    this.lanes = new HostLanes({
      ...run.politeness,
      concurrencyPerHost: this.concurrency,
      clock: this.clock,
    });
    this.frontier = new Frontier(
      run.profile,
      {
        maxPages: settings.maxPages,
        maxDepth: settings.maxDepth,
        patternBudget: run.trap?.patternBudget ?? defaultPatternBudget(settings.maxPages),
        queryVariants: run.trap?.queryVariants ?? DEFAULT_QUERY_VARIANTS,
      },
      // A list is finite by itself: its URLs and their redirects are not a trap to bound.
      (kind: AdmitKind) => settings.mode === 'site' && (kind === 'link' || kind === 'redirect'),
    );
    this.flusher = new Flusher({
      store: run.store,
      clock: this.clock,
      everyPages: run.flushEveryPages ?? 200,
      everyMs: run.flushEveryMs ?? 1_000,
      progress: () => this.progress(),
      mayFlush: () => !this.error && !this.run.signal?.aborted,
      signal: this.inner.signal,
      saved: (progress) => this.run.onFlush?.(progress),
      failed: (err) => this.fail(err),
      settled: () => this.checkDone(),
    });
    // Every worker's fetch and wait listens to this signal: many listeners at once is the design.
    setMaxListeners(0, this.inner.signal);
  }

  async start(): Promise<CrawlProgress> {
    const { signal } = this.run;
    if (signal?.aborted) throw signal.reason;
    const done = new Promise<CrawlProgress>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    const onAbort = () => this.abortAll();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const loaded = await this.run.store.load();
      this.running++;
      try {
        if (loaded.items.length > 0) this.resume(loaded.items, loaded.progress);
        else this.begin();
        if (this.run.settings.mode === 'list' && this.run.seeds) void this.feed(this.run.seeds);
      } finally {
        this.running--;
      }
      this.checkDone();
      return await done;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.lanes.close();
      // Ends the flush timer's sleep, so nothing of the crawl keeps the process alive after it.
      if (!this.inner.signal.aborted) this.inner.abort();
    }
  }

  private begin(): void {
    const { settings } = this.run;
    if (settings.mode !== 'site') return;
    if (!settings.startUrl) throw new Error('A site crawl needs a start URL');
    const start = this.frontier.resolve(settings.startUrl);
    if (!start) throw new Error(`The start URL ${settings.startUrl} is not an absolute http(s) URL`);
    this.scope.add(start.host);
    this.chainKey = start.key;
    this.admit(start, 0, 'start');
  }

  private resume(items: FrontierItem[], progress: CrawlProgress | null): void {
    if (this.run.settings.mode === 'site') {
      // Everything admitted was in scope when it was admitted (a site crawl admits nothing else).
      for (const item of items) this.scope.add(item.url);
    }
    for (const host of progress?.scope?.joined ?? []) this.scope.add(host);
    this.joined = [...(progress?.scope?.joined ?? [])];
    this.chainKey = progress?.scope?.chain ?? null;
    this.frontier.restore(items, progress?.sections ?? null);
    // URLs left over by a host given up, the safeguard or a stop are tried again.
    this.frontier.forgetCuts(['host_refused', 'failing', 'cancelled']);
    if (progress) {
      this.fetched = progress.fetched;
      this.requests = progress.requests;
      this.byStatus = { ...progress.byStatus };
      if (progress.stopped?.reason === 'max_pages') this.stopped = progress.stopped;
    }
    for (const [host, queue] of this.frontier.hosts) if (queue.size > 0) this.spawn(host);
  }

  /** List mode: admits the declared URLs in order, reading more while few are left to fetch. */
  private async feed(seeds: readonly string[] | AsyncIterable<readonly string[]>): Promise<void> {
    this.running++;
    try {
      const batches: AsyncIterable<readonly string[]> | Iterable<readonly string[]> = Array.isArray(seeds)
        ? chunks(seeds as readonly string[], FEED_CHUNK)
        : (seeds as AsyncIterable<readonly string[]>);
      for await (const batch of batches) {
        if (this.inner.signal.aborted && !this.halted) return;
        for (const raw of batch) {
          const link = this.frontier.resolve(raw);
          if (link) this.admit(link, 0, 'seed');
        }
        this.flusher.want();
        while (this.frontier.queued > FEED_LOW && !this.inner.signal.aborted) {
          await new Promise<void>((resolve) => {
            this.feedWaiter = resolve;
          });
        }
      }
    } catch (err) {
      this.fail(err);
    } finally {
      this.running--;
      this.checkDone();
    }
  }

  /** Admits a URL, or counts it cut; a URL of a given-up host or a stopped crawl is cut at once. */
  private admit(link: FrontierUrl, depth: number, kind: AdmitKind, from: URL | null = null): void {
    const forced = this.halted ?? (this.lanes.refusedHost(link.host) ? 'host_refused' : null);
    const got = this.frontier.admit(link, depth, kind, forced, from);
    if (got === 'seen') return;
    if (typeof got === 'string') {
      if (got === 'max_pages' && !this.stopped) {
        this.stopped = {
          reason: 'max_pages',
          message: `The crawl reached its limit of ${this.run.settings.maxPages.toLocaleString('en-US')} pages; links found after that were not followed`,
        };
      }
      return;
    }
    this.flusher.addAdmitted({ url: got.url, key: got.key, depth: got.depth, seq: got.seq });
    this.spawn(got.host);
  }

  private spawn(host: string): void {
    const queue = this.frontier.queue(host);
    while (queue.workers < this.concurrency && queue.workers < queue.size) {
      queue.workers++;
      void this.worker(host);
    }
  }

  private async worker(host: string): Promise<void> {
    const queue = this.frontier.queue(host);
    this.running++;
    try {
      while (!this.inner.signal.aborted) {
        if (this.flusher.full) await this.flusher.room();
        const item = this.frontier.take(queue);
        if (!item) break;
        if (this.feedWaiter && this.frontier.queued <= FEED_LOW) {
          this.feedWaiter();
          this.feedWaiter = null;
        }
        await this.visit(item);
      }
    } catch (err) {
      this.fail(err);
    } finally {
      queue.workers--;
      this.running--;
      this.checkDone();
    }
  }

  private async visit(item: QueuedItem): Promise<void> {
    const signal = this.inner.signal;
    const at = item.url.indexOf('/', item.url.indexOf('//') + 2);
    const origin = at === -1 ? item.url : item.url.slice(0, at);
    const rules = await this.robotsOf(origin, item.host);
    if (signal.aborted) return this.leftOver(item);
    if (rules === null) return this.leftOver(item);
    const parsed = new URL(item.url);
    const refusal = rules.refusal(parsed);
    if (refusal?.code === 'cancelled') return this.leftOver(item);
    if (refusal) {
      const blocked = refusal.code === 'robots_disallowed';
      return this.record(item, parsed, {
        ...this.noRequest(item.url),
        blockedByRobots: blocked,
        error: blocked ? null : { code: refusal.code, message: refusal.message },
      });
    }
    const slot = await this.lanes.acquire(item.host, signal);
    if (slot === null) return this.leftOver(item);
    if ('refused' in slot) {
      this.stop(slot.refused, slot.message, item.host);
      return this.leftOver(item);
    }
    this.requests++;
    let page: PageFetch;
    try {
      page = await this.run.fetcher(item.url, signal);
    } catch (err) {
      page = {
        ...this.noRequest(item.url),
        error: { code: 'fetch_failed', message: err instanceof Error ? err.message : String(err) },
      };
    }
    if (signal.aborted) {
      slot.release(null);
      return this.leftOver(item);
    }
    const outcome: RequestOutcome = {
      url: item.url,
      status: page.status,
      retryAfterMs: page.retryAfterMs,
      error: page.error,
    };
    const verdict = slot.release(outcome);
    const waitAsked = page.status === 429 || (page.status === 503 && page.retryAfterMs !== null);
    if (waitAsked && verdict.stop === null && item.attempts + 1 < MAX_ATTEMPTS) {
      item.attempts++;
      this.frontier.retry(item);
      this.spawn(item.host);
      return;
    }
    this.record(item, parsed, page);
    if (verdict.stop) this.stop(verdict.stop, verdict.message ?? '', item.host);
  }

  /** An item a stop, a given-up host or a cancel left unfetched: counted cut (a cancel counts nothing). */
  private leftOver(item: QueuedItem): void {
    if (this.run.signal?.aborted || this.error) return;
    const reason = this.halted ?? (this.lanes.refusedHost(item.host) ? 'host_refused' : null);
    if (reason) this.frontier.countCut(item.key, item.url, reason);
  }

  private robotsOf(origin: string, host: string): Promise<CrawlRobots | null> {
    let rules = this.robots.get(origin);
    if (!rules) {
      rules = (async () => {
        const slot = await this.lanes.acquire(host, this.inner.signal);
        if (slot === null || 'refused' in slot) return null;
        try {
          this.requests++;
          const got = await this.run.robots(origin, this.inner.signal);
          this.lanes.setCrawlDelay(host, got.crawlDelayMs ?? null);
          return got;
        } finally {
          slot.release(null);
        }
      })();
      this.robots.set(origin, rules);
    }
    return rules;
  }

  private noRequest(url: string): PageFetch {
    return unanswered(url, new Date(this.clock.now()));
  }

  /** Records a page: its status, the links it adds to the frontier and the inlinks it gives. */
  private record(item: QueuedItem, from: URL, page: PageFetch): void {
    this.fetched++;
    const group = page.blockedByRobots
      ? 'blocked'
      : page.status === null
        ? 'error'
        : `${Math.floor(page.status / 100)}xx`;
    this.byStatus[group] = (this.byStatus[group] ?? 0) + 1;
    let external = 0;
    let internal = 0;
    const status = page.status ?? 0;
    if (status >= 200 && status < 300 && page.links.length > 0) {
      const linked = new Set<string>();
      for (const raw of page.links) {
        const link = this.frontier.resolve(raw);
        if (!link) continue;
        if (!this.scope.has(link.host)) {
          external++;
          continue;
        }
        if (linked.has(link.key)) continue;
        linked.add(link.key);
        // A list crawl follows no links (only redirects); it still counts them as inlinks.
        if (!page.nofollow && this.run.settings.mode === 'site')
          this.admit(link, item.depth + 1, 'link', from);
        if (this.frontier.has(link.key)) this.flusher.addInlink(link.key);
      }
      internal = linked.size;
    }
    if (status >= 300 && status < 400 && page.redirectUrl) {
      const target = this.frontier.resolve(page.redirectUrl);
      if (target) {
        if (item.key === this.chainKey) {
          // The start URL moved (http → https, apex ↔ www): the site is where it went.
          if (this.scope.add(target.host)) this.joined.push(target.host);
          this.chainKey = target.key;
        }
        if (this.scope.has(target.host)) this.admit(target, item.depth + 1, 'redirect', from);
      }
    }
    this.flusher.addPage({
      ...page,
      seq: item.seq,
      key: item.key,
      depth: item.depth,
      outlinksExternal: external,
      outlinksInternal: internal,
    });
    this.flusher.want();
  }

  /** A host given up (its waiting URLs cut) or the whole crawl stopped (everything waiting cut). */
  private stop(reason: StopReason, message: string, host: string): void {
    if (reason === 'failing') {
      if (this.halted) return;
      this.halted = 'failing';
      this.stopped = { reason, message };
      for (const queue of this.frontier.hosts.values()) this.cutAll(queue, 'failing');
      // Requests still in flight are abandoned: their URLs count as cut too.
      this.inner.abort(new Error(message));
      this.feedWaiter?.();
      return;
    }
    this.stopped ??= { reason, message };
    this.cutAll(this.frontier.queue(host), 'host_refused');
  }

  private cutAll(queue: ReturnType<Frontier['queue']>, reason: CutReason): void {
    for (const item of this.frontier.drain(queue)) this.frontier.countCut(item.key, item.url, reason);
  }

  private progress(): CrawlProgress {
    return {
      fetched: this.fetched,
      queued: this.frontier.queued,
      byStatus: { ...this.byStatus },
      requests: this.requests,
      sections: this.frontier.coverageList(),
      stopped: this.stopped,
      scope: { joined: [...this.joined], chain: this.chainKey },
    };
  }

  private fail(err: unknown): void {
    this.error ??= err;
    this.abortAll();
  }

  private abortAll(): void {
    if (!this.inner.signal.aborted) this.inner.abort(this.run.signal?.reason ?? this.error);
    this.lanes.close();
    this.feedWaiter?.();
    this.flusher.release();
  }

  /** Once nothing runs: the final flush and the answer (or, cancelled or failed, only the answer). */
  private checkDone(): void {
    if (this.running > 0 || this.finished || this.flusher.busy) return;
    this.finished = true;
    if (this.error || this.run.signal?.aborted) {
      this.settle.reject(this.error ?? this.run.signal?.reason);
      return;
    }
    const progress = this.progress();
    this.flusher.final(progress).then(
      () => {
        if (this.run.signal?.aborted) return this.settle.reject(this.run.signal.reason);
        this.run.onFlush?.(progress);
        this.settle.resolve(progress);
      },
      (err: unknown) => this.settle.reject(err),
    );
  }
}

function* chunks<T>(list: readonly T[], size: number): Iterable<readonly T[]> {
  for (let at = 0; at < list.length; at += size) yield list.slice(at, at + size);
}
