// The crawl's frontier in memory: which keys were admitted (each once), the trap counters, the coverage
// of each section (pages admitted, URLs cut by which limit) and the URLs waiting, per host, breadth first.
// It holds one small record per admitted URL and nothing per fetched page.
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { type FrontierUrl, frontierUrl, sectionOf, trapKeys } from './scope';
import type { CutReason, FrontierItem, SectionCoverage } from './types';

export interface QueuedItem {
  url: string;
  key: string;
  host: string;
  depth: number;
  seq: number;
  /** Requests already answered 429/503 for it (it waits for its host's pause, then is asked again). */
  attempts: number;
}

export interface FrontierLimits {
  maxPages: number;
  maxDepth: number;
  /** Pages per path pattern (digits as `*`, plus the query names). */
  patternBudget: number;
  /** Distinct query strings per path. */
  queryVariants: number;
}

/** How a URL came to the frontier: the trap limits bound discovery, not the URLs a list declares. */
export type AdmitKind = 'start' | 'seed' | 'link' | 'redirect';

// Cut URLs are counted once each; past this many distinct ones a URL linked again may count again (the
// section stays cut either way), so a trap with millions of links cannot grow memory without bound.
const CUT_MEMORY = 200_000;
// Links repeat from page to page (navigation): their parse is kept for the next page.
const LINK_CACHE = 20_000;

/** Items of one host, breadth first: by depth, then admission order; a retried item goes first. */
class HostQueue {
  private readonly byDepth: QueuedItem[][] = [];
  private readonly heads: number[] = [];
  private readonly retries: QueuedItem[] = [];
  private minDepth = 0;
  size = 0;
  workers = 0;

  push(item: QueuedItem): void {
    while (this.byDepth.length <= item.depth) {
      this.byDepth.push([]);
      this.heads.push(0);
    }
    (this.byDepth[item.depth] as QueuedItem[]).push(item);
    if (item.depth < this.minDepth) this.minDepth = item.depth;
    this.size++;
  }

  retry(item: QueuedItem): void {
    this.retries.push(item);
    this.size++;
  }

  shift(): QueuedItem | undefined {
    if (this.size === 0) return undefined;
    const retried = this.retries.shift();
    if (retried) {
      this.size--;
      return retried;
    }
    for (let depth = this.minDepth; depth < this.byDepth.length; depth++) {
      const bucket = this.byDepth[depth] as QueuedItem[];
      const head = this.heads[depth] as number;
      if (head >= bucket.length) continue;
      this.minDepth = depth;
      const item = bucket[head] as QueuedItem;
      bucket[head] = undefined as unknown as QueuedItem;
      if (head + 1 === bucket.length) {
        bucket.length = 0;
        this.heads[depth] = 0;
      } else if (head >= 4096 && head * 2 >= bucket.length) {
        // Drop the taken half so a long bucket does not keep its consumed slots.
        bucket.splice(0, head + 1);
        this.heads[depth] = 0;
      } else this.heads[depth] = head + 1;
      this.size--;
      return item;
    }
    return undefined;
  }

  /** Takes every waiting item out (a host given up, a crawl stopped). */
  drain(): QueuedItem[] {
    const out: QueuedItem[] = [];
    for (let item = this.shift(); item; item = this.shift()) out.push(item);
    return out;
  }
}

interface Coverage {
  pages: number;
  cut: Partial<Record<CutReason, number>>;
  example: string | null;
}

export class Frontier {
  private readonly seen = new Set<string>();
  private readonly cutSeen = new Set<string>();
  private readonly patternCut = new Set<string>();
  private readonly patterns = new Map<string, number>();
  private readonly queries = new Map<string, number>();
  private readonly sections = new Map<string, Coverage>();
  private readonly links = new Map<string, FrontierUrl | null>();
  readonly hosts = new Map<string, HostQueue>();
  admitted = 0;
  queued = 0;
  private seq = 0;

  constructor(
    private readonly profile: NormalizationProfile,
    private readonly limits: FrontierLimits,
    private readonly trapsApply: (kind: AdmitKind) => boolean,
  ) {}

  /** The frontier URL of a link (parsed once per distinct link text while it is in the cache). */
  resolve(raw: string): FrontierUrl | null {
    let hit = this.links.get(raw);
    if (hit === undefined) {
      hit = frontierUrl(raw, this.profile);
      if (this.links.size >= LINK_CACHE) this.links.clear();
      this.links.set(raw, hit);
    }
    return hit;
  }

  has(key: string): boolean {
    return this.seen.has(key);
  }

  /** Why `link` would be cut now, or null when it may be admitted. */
  private limitOf(link: FrontierUrl, depth: number, kind: AdmitKind, from: URL | null): CutReason | null {
    if (depth > this.limits.maxDepth && kind !== 'start' && kind !== 'seed') return 'max_depth';
    if (this.trapsApply(kind)) {
      const trap = trapKeys(link.parsed);
      // A trap breeds itself: next month from this month, page n+1 from page n. Only a URL found on a page of
      // its own pattern is cut by the pattern's budget, so a catalog's 50,000 /p/123 pages, found on its
      // category pages, are not (the page limit bounds those), while a calendar stops at its budget.
      if (
        from !== null &&
        (this.patterns.get(trap.pattern) ?? 0) >= this.limits.patternBudget &&
        trapKeys(from).pattern === trap.pattern
      ) {
        return 'pattern_budget';
      }
      if (trap.query !== '' && (this.queries.get(trap.path) ?? 0) >= this.limits.queryVariants) {
        return 'query_variants';
      }
    }
    if (this.admitted >= this.limits.maxPages) return 'max_pages';
    return null;
  }

  /**
   * Admits `link` (the item, queued on its host), or counts it cut (the reason), or does nothing when its
   * key was admitted or counted before ('seen'). `forced` cuts it with that reason whatever the limits;
   * `from` is the page it was found on (its redirect or link), null for a start or declared URL.
   */
  admit(
    link: FrontierUrl,
    depth: number,
    kind: AdmitKind,
    forced: CutReason | null = null,
    from: URL | null = null,
  ): QueuedItem | CutReason | 'seen' {
    if (this.seen.has(link.key) || this.cutSeen.has(link.key)) return 'seen';
    const patternCut = this.patternCut.has(link.key);
    const reason = forced ?? this.limitOf(link, depth, kind, from);
    if (patternCut) {
      // Cut once as its pattern's offspring; found now on another page, it may be admitted after all.
      if (reason !== null) return 'seen';
      this.patternCut.delete(link.key);
      this.uncountCut(link.key, 'pattern_budget');
    } else if (reason !== null) {
      const memory = reason === 'pattern_budget' ? this.patternCut : this.cutSeen;
      if (this.cutSeen.size + this.patternCut.size < CUT_MEMORY) memory.add(link.key);
      this.countCut(link.key, link.url, reason);
      return reason;
    }
    const item: QueuedItem = {
      url: link.url,
      key: link.key,
      host: link.host,
      depth,
      seq: ++this.seq,
      attempts: 0,
    };
    this.remember(item, link.parsed);
    this.enqueue(item);
    return item;
  }

  /** Puts back what a resumed crawl had admitted: done items only count; the rest wait again. */
  restore(items: readonly FrontierItem[], coverage: readonly SectionCoverage[] | null): void {
    for (const section of coverage ?? []) {
      this.sections.set(section.section, {
        pages: section.pages,
        cut: { ...section.cut },
        example: section.example,
      });
    }
    const waiting: QueuedItem[] = [];
    for (const item of items) {
      let parsed: URL;
      try {
        parsed = new URL(item.url);
      } catch {
        continue;
      }
      const queued: QueuedItem = {
        url: item.url,
        key: item.key,
        host: parsed.host,
        depth: item.depth,
        seq: item.seq,
        attempts: 0,
      };
      if (item.seq > this.seq) this.seq = item.seq;
      this.remember(queued, parsed, coverage === null);
      if (!item.done) waiting.push(queued);
    }
    waiting.sort((a, b) => a.depth - b.depth || a.seq - b.seq);
    for (const item of waiting) this.enqueue(item);
  }

  /** Forgets the cut counts of the given reasons (a resumed crawl tries those URLs again). */
  forgetCuts(reasons: readonly CutReason[]): void {
    for (const coverage of this.sections.values()) {
      for (const reason of reasons) delete coverage.cut[reason];
      if (Object.keys(coverage.cut).length === 0) coverage.example = null;
    }
  }

  private uncountCut(key: string, reason: CutReason): void {
    const coverage = this.coverage(sectionOf(key));
    const left = (coverage.cut[reason] ?? 0) - 1;
    if (left > 0) coverage.cut[reason] = left;
    else delete coverage.cut[reason];
    if (Object.keys(coverage.cut).length === 0) coverage.example = null;
  }

  countCut(key: string, url: string, reason: CutReason): void {
    const coverage = this.coverage(sectionOf(key));
    coverage.cut[reason] = (coverage.cut[reason] ?? 0) + 1;
    coverage.example ??= url;
  }

  queue(host: string): HostQueue {
    let queue = this.hosts.get(host);
    if (!queue) {
      queue = new HostQueue();
      this.hosts.set(host, queue);
    }
    return queue;
  }

  take(queue: HostQueue): QueuedItem | undefined {
    const item = queue.shift();
    if (item) this.queued--;
    return item;
  }

  retry(item: QueuedItem): void {
    this.queue(item.host).retry(item);
    this.queued++;
  }

  drain(queue: HostQueue): QueuedItem[] {
    const items = queue.drain();
    this.queued -= items.length;
    return items;
  }

  coverageList(): SectionCoverage[] {
    return [...this.sections]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([section, c]) => ({ section, pages: c.pages, cut: { ...c.cut }, example: c.example }));
  }

  private remember(item: QueuedItem, parsed: URL, countPage = true): void {
    this.seen.add(item.key);
    this.admitted++;
    const trap = trapKeys(parsed);
    this.patterns.set(trap.pattern, (this.patterns.get(trap.pattern) ?? 0) + 1);
    if (trap.query !== '') this.queries.set(trap.path, (this.queries.get(trap.path) ?? 0) + 1);
    if (countPage) this.coverage(sectionOf(item.key)).pages++;
  }

  private enqueue(item: QueuedItem): void {
    this.queue(item.host).push(item);
    this.queued++;
  }

  private coverage(section: string): Coverage {
    let coverage = this.sections.get(section);
    if (!coverage) {
      coverage = { pages: 0, cut: {}, example: null };
      this.sections.set(section, coverage);
    }
    return coverage;
  }
}
