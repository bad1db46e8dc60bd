// Reads sitemap trees for the CLI, without a database: local files and folders, and URLs through the
// product's safe HTTP client (private addresses refused unless ALLOW_PRIVATE_NETWORK=true). Every file is
// streamed through the product's own reader (lib/sitemap/parse) into a visitor (the lint engine, or the
// diff's collector), so memory stays flat whatever the tree's size. Indexes are followed: a fetched
// index's children are fetched; a local index's children are read from the matching file inside the
// folder the walk started from (a build folder holds the whole set: see local-tree.ts), and not fetched.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { sniffUploadIsIndex } from '@/lib/ingest/sniff-upload';
import { safeFetch } from '@/lib/net/safe-fetch';
import { classifySourceUrl, fallbackSitemapUrls } from '@/lib/sitemap/discover';
import { newParseStats, parseSitemapBatches } from '@/lib/sitemap/parse';
import { parseRobotsSitemaps } from '@/lib/sitemap/robots';
import { type ParseStats, type SitemapEntry, SitemapParseError } from '@/lib/sitemap/types';
import { listSitemapFiles, localChildPlace, type Skipped } from './local-tree';
import type { ChildRef, FileMeta } from './types';

export interface TreeVisitor {
  beginFile(meta: FileMeta): void;
  /** Returns the child sitemaps named in the batch. */
  addEntries(batch: readonly SitemapEntry[]): ChildRef[];
  endFile(stats: ParseStats, error: { message: string; line?: number } | null): void;
  fileFailed(meta: FileMeta, message: string): void;
  /** A child of a local index that maps to no file the walk may read: `file` is the index. */
  childRefused(child: ChildRef, file: string, reason: string): void;
}

export interface ReadOptions {
  /** Site URL that relative locations of local files resolve against. */
  base?: string | null;
  /** Files listed in a folder and files read in all (indexes included): see MAX_FILES. */
  maxFiles?: number;
}

export interface Unreadable {
  file: string;
  line?: number;
  message: string;
}

/**
 * Files listed in a folder, and files read in all (indexes included), before the walk stops: a runaway
 * index or folder cannot make it endless. `--max-files` sets it.
 */
export const MAX_FILES = 100_000;
/** Examples of skipped paths and refused children kept for the report (the counts are exact). */
const KEPT = 20;
const MAX_DEPTH = 5;
/** sitemaps.org allows 50 MiB; larger files are still read (up to this) so that the rule can say so. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;

export function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

/** Fetches a small text resource (robots.txt) through the safe client; null on any failure. */
export async function fetchText(url: string): Promise<{ body: Buffer; finalUrl: string } | null> {
  try {
    const response = await safeFetch(url, { maxBytes: 512 * 1024, retries: 1 });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
    return response.status === 200 ? { body: Buffer.concat(chunks), finalUrl: response.url } : null;
  } catch {
    return null;
  }
}

interface Task {
  kind: 'file' | 'url';
  /** A path or a URL. */
  source: string;
  depth: number;
  /** For a local child found through its index: the URL the index gave it. */
  url?: string;
  /** A site root's conventional location: a 404 is expected, not an error. */
  optional?: boolean;
  /** For a local file: the real path of the folder the walk started from, which its children stay in. */
  root?: string;
}

export interface Refused extends Skipped {
  /** The index that names the child, and where. */
  file: string;
  line: number;
}

export class TreeReader {
  readonly unreadable: Unreadable[] = [];
  /** Children of local indexes with no file of the same name beside them: not read. */
  childrenNotFound = 0;
  /** Paths of folders not followed (symbolic links, unlistable folders, the cap): the first few. */
  readonly skipped: Skipped[] = [];
  skippedCount = 0;
  /** Children of local indexes refused (outside the folder): the first few; each is also a finding. */
  readonly refused: Refused[] = [];
  refusedCount = 0;
  private readonly seen = new Set<string>();
  private files = 0;
  private readonly maxFiles: number;

  constructor(
    private readonly visitor: TreeVisitor,
    private readonly options: ReadOptions = {},
  ) {
    this.maxFiles = options.maxFiles ?? MAX_FILES;
  }

  /** Reads every input (files, folders, sitemap / robots.txt / site URLs) and everything they lead to. */
  async read(inputs: readonly string[]): Promise<void> {
    for (const input of inputs) {
      if (isUrl(input)) await this.readUrlInput(input);
      else if (existsSync(input) && statSync(input).isDirectory()) {
        const listing = listSitemapFiles(input, this.maxFiles);
        for (const item of listing.skipped) this.skip(item);
        if (listing.capped)
          this.skip({
            path: input,
            reason: `listing stopped at the file cap (${this.maxFiles}, --max-files)`,
          });
        const root = realpathSync(input);
        // Indexes first (as ingestion reads uploads), so that the children they list are read through
        // them: with the URL the index gives them as their base.
        const indexes: string[] = [];
        const rest: string[] = [];
        for (const file of listing.files) ((await sniffUploadIsIndex(file)) ? indexes : rest).push(file);
        for (const file of [...indexes, ...rest])
          await this.walk({ kind: 'file', source: file, depth: 0, root });
      } else {
        let root: string | undefined;
        try {
          root = realpathSync(path.dirname(input));
        } catch {
          root = undefined; // no such folder: readFile reports the missing file
        }
        await this.walk({ kind: 'file', source: input, depth: 0, root });
      }
    }
  }

  private skip(item: Skipped): void {
    this.skippedCount++;
    if (this.skipped.length < KEPT) this.skipped.push(item);
  }

  private async readUrlInput(url: string): Promise<void> {
    const kind = classifySourceUrl(url);
    if (kind === 'sitemap') {
      await this.walk({ kind: 'url', source: url, depth: 0 });
      return;
    }
    const robotsUrl = kind === 'robots' ? url : new URL('/robots.txt', url).href;
    const robots = await fetchText(robotsUrl);
    const named = robots ? parseRobotsSitemaps(robots.body, robots.finalUrl).sitemaps : [];
    if (named.length === 0 && kind === 'robots') {
      this.unreadable.push({ file: url, message: 'robots.txt names no sitemap (or could not be fetched)' });
      return;
    }
    if (named.length > 0) {
      for (const sitemap of named) await this.walk({ kind: 'url', source: sitemap, depth: 0 });
      return;
    }
    // The conventional locations, tried in order: a 404 there is expected, the first that answers is read.
    for (const candidate of fallbackSitemapUrls(url)) {
      if (await this.walk({ kind: 'url', source: candidate, depth: 0, optional: true })) return;
    }
    this.unreadable.push({
      file: url,
      message: `no sitemap found: robots.txt names none and ${fallbackSitemapUrls(url).join(', ')} answer 404`,
    });
  }

  /** Reads `root` and everything it leads to; false when `root` was an optional location that answered 404. */
  private async walk(root: Task): Promise<boolean> {
    const queue: Task[] = [root];
    while (queue.length > 0) {
      const task = queue.shift() as Task;
      const key = task.kind === 'file' ? path.resolve(task.source) : task.source;
      if (this.seen.has(key) || task.depth > MAX_DEPTH) continue;
      if (this.files >= this.maxFiles) {
        this.skip({ path: task.source, reason: `not read: the file cap (${this.maxFiles}, --max-files)` });
        continue;
      }
      this.seen.add(key);
      this.files++;
      const children = task.kind === 'file' ? await this.readFile(task) : await this.readUrl(task);
      if (children === null) return false;
      for (const child of children) {
        const next = this.childTask(task, child);
        if (next) queue.push(next);
      }
    }
    return true;
  }

  private childTask(parent: Task, child: ChildRef): Task | null {
    const depth = parent.depth + 1;
    if (parent.kind === 'url') return child.url === null ? null : { kind: 'url', source: child.url, depth };
    const root = parent.root ?? path.dirname(path.resolve(parent.source));
    const place = localChildPlace(child, path.dirname(parent.source), root);
    if (place.kind === 'refused') {
      this.refusedCount++;
      if (this.refused.length < KEPT)
        this.refused.push({ path: child.loc, reason: place.reason, file: parent.source, line: child.line });
      this.visitor.childRefused(child, parent.source, place.reason);
      return null;
    }
    if (place.kind === 'missing') {
      if (child.url !== null) this.childrenNotFound++;
      return null;
    }
    return { kind: 'file', source: place.path, depth, url: child.url ?? undefined, root };
  }

  private async readFile(task: Task): Promise<ChildRef[]> {
    const meta: FileMeta = {
      label: task.source,
      requestedUrl: null,
      finalUrl: null,
      base: task.url ?? this.options.base ?? null,
      contentType: null,
      contentEncoding: null,
      name: task.source,
      bom: false,
    };
    if (!existsSync(task.source) || !statSync(task.source).isFile()) {
      this.fail(meta, `no such file: ${task.source}`);
      return [];
    }
    return this.parse(meta, createReadStream(task.source, { highWaterMark: 256 * 1024 }));
  }

  /** The children named by the file; null for an optional location that answered 404. */
  private async readUrl(task: Task): Promise<ChildRef[] | null> {
    const meta: FileMeta = {
      label: task.source,
      requestedUrl: task.source,
      finalUrl: null,
      base: task.source,
      contentType: null,
      contentEncoding: null,
      name: new URL(task.source).pathname,
      bom: false,
    };
    let response: Awaited<ReturnType<typeof safeFetch>>;
    try {
      response = await safeFetch(task.source, { maxBytes: MAX_FILE_BYTES, retries: 1 });
    } catch (err) {
      this.fail(meta, (err as Error).message);
      return [];
    }
    const header = (name: string) => {
      const value = response.headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    };
    meta.finalUrl = response.url;
    meta.base = response.url;
    meta.label = response.url;
    if (response.status !== 200) {
      response.body.destroy();
      if (task.optional && response.status === 404) return null;
      this.fail(meta, `HTTP ${response.status}`);
      return [];
    }
    meta.contentType = header('content-type');
    meta.contentEncoding = header('content-encoding');
    return this.parse(meta, response.body);
  }

  private fail(meta: FileMeta, message: string): void {
    this.unreadable.push({ file: meta.label, message });
    this.visitor.fileFailed(meta, message);
  }

  private async parse(meta: FileMeta, body: AsyncIterable<Uint8Array>): Promise<ChildRef[]> {
    const stats = newParseStats();
    const children: ChildRef[] = [];
    this.visitor.beginFile(meta);
    let error: { message: string; line?: number } | null = null;
    try {
      for await (const batch of parseSitemapBatches(body, stats, {
        maxUncompressedBytes: MAX_FILE_BYTES,
      })) {
        for (const child of this.visitor.addEntries(batch)) children.push(child);
      }
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      error =
        err instanceof SitemapParseError && err.line !== undefined
          ? { message: err.message, line: err.line }
          : { message: err.message };
      this.unreadable.push({ file: meta.label, ...error });
    }
    meta.bom = stats.bom;
    this.visitor.endFile(stats, error);
    return children;
  }
}
