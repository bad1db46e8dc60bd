// What a release changes in a sitemap tree: URLs added, removed, and whose lastmod changed, between two
// trees. Flat memory: the old tree becomes a table of URL hashes and lastmods (24 bytes a slot, at most
// half used: 24-48 bytes per URL), the new tree is compared against it as it streams, and the old tree is
// read a second time to name the removed URLs. Only counts and the first `limit` examples are kept.
import type { ParseStats, SitemapEntry } from '@/lib/sitemap/types';
import { hash53 } from '@/lib/urls/key-tally';
import type { TreeVisitor } from './read-tree';
import type { ChildRef, FileMeta } from './types';

const EMPTY = 0;
const NO_LASTMOD = Number.NaN;
/** Above the largest time value a Date can hold (8.64e15 ms). */
const INVALID_BASE = 1e16;
// Marks of a slot: in the old tree only, seen again in the new tree, added by the new tree, reported removed.
const OLD = 0;
const KEPT = 1;
const ADDED = 2;
const REMOVED = 3;

class LastmodTable {
  private hashes = new Float64Array(1 << 12);
  private values = new Float64Array(1 << 12);
  private marks = new Uint8Array(1 << 12);
  private used = 0;

  /** The slot of `h`, inserting it (with `value` and `mark`) when absent; `found` says which. */
  slot(h: number, value: number, mark: number): { index: number; found: boolean } {
    if ((this.used + 1) * 2 > this.hashes.length) this.grow();
    const mask = this.hashes.length - 1;
    let i = h & mask;
    for (;;) {
      const slot = this.hashes[i] as number;
      if (slot === h) return { index: i, found: true };
      if (slot === EMPTY) {
        this.hashes[i] = h;
        this.values[i] = value;
        this.marks[i] = mark;
        this.used++;
        return { index: i, found: false };
      }
      i = (i + 1) & mask;
    }
  }

  value(index: number): number {
    return this.values[index] as number;
  }

  mark(index: number): number {
    return this.marks[index] as number;
  }

  setMark(index: number, mark: number): void {
    this.marks[index] = mark;
  }

  private grow(): void {
    const { hashes, values, marks } = this;
    this.hashes = new Float64Array(hashes.length * 2);
    this.values = new Float64Array(hashes.length * 2);
    this.marks = new Uint8Array(hashes.length * 2);
    this.used = 0;
    for (let j = 0; j < hashes.length; j++) {
      const h = hashes[j] as number;
      if (h === EMPTY) continue;
      this.slot(h, values[j] as number, marks[j] as number);
    }
  }
}

export interface DiffSide {
  files: number;
  urls: number;
}

export interface DiffList<T> {
  count: number;
  examples: T[];
}

export interface DiffResult {
  old: DiffSide;
  new: DiffSide;
  added: DiffList<string>;
  removed: DiffList<string>;
  lastmodChanged: DiffList<{ url: string; old: string | null; new: string | null }>;
}

type Phase = 'old' | 'new' | 'removed';

function lastmodValue(entry: SitemapEntry): number {
  if (entry.lastmod) return entry.lastmod.getTime();
  // An unparseable lastmod still changes when its text does: its hash, beyond any date's time value.
  return entry.lastmodRaw === null ? NO_LASTMOD : INVALID_BASE + (hash53(entry.lastmodRaw) % 1e15);
}

function showLastmod(value: number): string | null {
  if (Number.isNaN(value)) return null;
  return value >= INVALID_BASE ? '(invalid)' : new Date(value).toISOString();
}

/** A visitor for TreeReader: read the old tree in phase 'old', the new one in 'new', the old again in 'removed'. */
export class DiffCollector implements TreeVisitor {
  phase: Phase = 'old';
  private readonly table = new LastmodTable();
  private base: URL | null = null;
  readonly result: DiffResult;

  constructor(private readonly limit: number) {
    this.result = {
      old: { files: 0, urls: 0 },
      new: { files: 0, urls: 0 },
      added: { count: 0, examples: [] },
      removed: { count: 0, examples: [] },
      lastmodChanged: { count: 0, examples: [] },
    };
  }

  beginFile(meta: FileMeta): void {
    try {
      this.base = meta.base === null ? null : new URL(meta.base);
    } catch {
      this.base = null;
    }
    if (this.phase !== 'removed') this.result[this.phase].files++;
  }

  addEntries(batch: readonly SitemapEntry[]): ChildRef[] {
    const children: ChildRef[] = [];
    for (const entry of batch) {
      const href = this.resolve(entry.loc);
      if (entry.type === 'sitemap') {
        children.push({ loc: entry.loc, line: entry.line, url: href });
        continue;
      }
      this.judge(href ?? entry.loc, entry);
    }
    return children;
  }

  endFile(_stats: ParseStats, _error: { message: string; line?: number } | null): void {}

  fileFailed(meta: FileMeta): void {
    this.beginFile(meta);
  }

  /** Refused children change no URL list: the command reports them from the reader. */
  childRefused(): void {}

  private resolve(loc: string): string | null {
    try {
      return new URL(loc, this.base ?? undefined).href;
    } catch {
      return null;
    }
  }

  private judge(url: string, entry: SitemapEntry): void {
    const value = lastmodValue(entry);
    const h = hash53(url);
    const { table, result, limit } = this;
    if (this.phase === 'old') {
      result.old.urls++;
      table.slot(h, value, OLD);
      return;
    }
    if (this.phase === 'removed') {
      const { index } = table.slot(h, value, REMOVED);
      if (table.mark(index) !== OLD) return;
      table.setMark(index, REMOVED);
      result.removed.count++;
      if (result.removed.examples.length < limit) result.removed.examples.push(url);
      return;
    }
    result.new.urls++;
    const { index, found } = table.slot(h, value, ADDED);
    if (!found) {
      result.added.count++;
      if (result.added.examples.length < limit) result.added.examples.push(url);
      return;
    }
    if (table.mark(index) !== OLD) return;
    table.setMark(index, KEPT);
    const before = table.value(index);
    if (before === value || (Number.isNaN(before) && Number.isNaN(value))) return;
    result.lastmodChanged.count++;
    if (result.lastmodChanged.examples.length < limit)
      result.lastmodChanged.examples.push({ url, old: showLastmod(before), new: showLastmod(value) });
  }
}
