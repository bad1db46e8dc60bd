// A CrawlStore in memory, for tests and the benchmark: it applies each flush whole (as the Postgres store's
// transaction does) and can fail a chosen save, which is how a crash between two flushes is simulated.
import type { CrawledPage, CrawlFlush, CrawlProgress, CrawlStore, FrontierItem } from './types';

export interface MemoryStoreOptions {
  /** The save (1-based, counted over the store's life) that throws instead of saving: a crash there. */
  failOnSave?: number;
  /** Keep each page's answer (without its links); off for the benchmark, which only counts. */
  keepPages?: boolean;
}

export class MemoryCrawlStore implements CrawlStore {
  readonly items = new Map<string, FrontierItem>();
  readonly pages = new Map<string, Omit<CrawledPage, 'links'>>();
  readonly inlinks = new Map<string, number>();
  progress: CrawlProgress | null = null;
  saves = 0;
  pagesSaved = 0;
  failOnSave: number | null;
  private readonly keepPages: boolean;

  constructor(options: MemoryStoreOptions = {}) {
    this.failOnSave = options.failOnSave ?? null;
    this.keepPages = options.keepPages ?? true;
  }

  async load(): Promise<{ items: FrontierItem[]; progress: CrawlProgress | null }> {
    return {
      items: [...this.items.values()].map((item) => ({ ...item })),
      progress: this.progress ? structuredClone(this.progress) : null,
    };
  }

  async save(flush: CrawlFlush): Promise<void> {
    this.saves++;
    if (this.saves === this.failOnSave) throw new Error(`simulated crash on save ${this.saves}`);
    for (const item of flush.admitted) {
      if (this.items.has(item.key)) throw new Error(`${item.key} was admitted twice`);
      this.items.set(item.key, { ...item, done: false });
    }
    for (const page of flush.pages) {
      const item = this.items.get(page.key);
      if (!item) throw new Error(`${page.key} was saved as a page before it was admitted`);
      if (item.done) throw new Error(`${page.key} was saved as a page twice`);
      item.done = true;
      this.pagesSaved++;
      if (this.keepPages) {
        const { links: _links, ...rest } = page;
        this.pages.set(page.key, rest);
      }
    }
    for (const [key, count] of flush.inlinks) this.inlinks.set(key, (this.inlinks.get(key) ?? 0) + count);
    this.progress = structuredClone(flush.progress);
  }
}
