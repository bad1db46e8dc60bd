// What the crawl has found since its last save, and when to save it: every `everyPages` pages, or
// `everyMs` after the last save once something waits, one save at a time. A crash loses at most what
// waits here; nothing stays here after its save.
import type { Clock } from './lanes';
import type { CrawledPage, CrawlFlush, CrawlProgress, CrawlStore, FrontierItem } from './types';

/** Admitted URLs (list mode reads them fast) also start a save, so that one save stays small. */
const FLUSH_ADMITTED = 5_000;

export interface FlusherOptions {
  store: CrawlStore;
  clock: Clock;
  everyPages: number;
  everyMs: number;
  /** The totals to save with a flush (read when the flush is cut). */
  progress: () => CrawlProgress;
  /** False once nothing more may be saved (cancelled, failed). */
  mayFlush: () => boolean;
  /** Ends the timer's sleep early. */
  signal: AbortSignal;
  saved: (progress: CrawlProgress) => void;
  failed: (err: unknown) => void;
  /** After each save: the crawl may be done now. */
  settled: () => void;
}

export class Flusher {
  private pages: CrawledPage[] = [];
  private admitted: Omit<FrontierItem, 'done'>[] = [];
  private inlinks = new Map<string, number>();
  private lastAt: number;
  private timer = false;
  private saving: Promise<void> | null = null;
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: FlusherOptions) {
    this.lastAt = options.clock.now();
  }

  get busy(): boolean {
    return this.saving !== null;
  }

  /** True when fetching should wait for a save: four flushes' worth of pages are waiting. */
  get full(): boolean {
    return this.pages.length >= this.options.everyPages * 4;
  }

  addPage(page: CrawledPage): void {
    this.pages.push(page);
  }

  addAdmitted(item: Omit<FrontierItem, 'done'>): void {
    this.admitted.push(item);
  }

  addInlink(key: string): void {
    this.inlinks.set(key, (this.inlinks.get(key) ?? 0) + 1);
  }

  /** Starts a save when enough waits, or arms the timer for what does. */
  want(): void {
    if (this.saving || this.closed) return;
    if (this.pages.length + this.admitted.length === 0) return;
    const { clock, everyMs } = this.options;
    if (
      this.pages.length >= this.options.everyPages ||
      this.admitted.length >= FLUSH_ADMITTED ||
      clock.now() - this.lastAt >= everyMs
    ) {
      this.saving = this.flush().finally(() => {
        this.saving = null;
        for (const wake of this.waiters.splice(0)) wake();
        this.options.settled();
        this.want();
      });
      return;
    }
    if (!this.timer) {
      this.timer = true;
      void clock.sleep(Math.max(0, this.lastAt + everyMs - clock.now()), this.options.signal).then(() => {
        this.timer = false;
        if (!this.options.signal.aborted) this.want();
      });
    }
  }

  /** Resolves once fetching may go on (a save made room, or nothing more will be saved). */
  room(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.saving) {
        this.want();
        if (!this.saving) return resolve();
      }
      this.waiters.push(resolve);
    });
  }

  /** Frees whoever waits for room (the crawl is ending). */
  release(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The last save: whatever waits, with the final totals. No save starts after it. */
  async final(progress: CrawlProgress): Promise<void> {
    this.closed = true;
    await this.options.store.save(this.take(progress));
  }

  private take(progress: CrawlProgress): CrawlFlush {
    const batch: CrawlFlush = { pages: this.pages, admitted: this.admitted, inlinks: this.inlinks, progress };
    this.pages = [];
    this.admitted = [];
    this.inlinks = new Map();
    this.lastAt = this.options.clock.now();
    return batch;
  }

  private async flush(): Promise<void> {
    if (!this.options.mayFlush()) return;
    const batch = this.take(this.options.progress());
    try {
      await this.options.store.save(batch);
    } catch (err) {
      this.options.failed(err);
      return;
    }
    if (this.options.mayFlush()) this.options.saved(batch.progress);
  }
}
