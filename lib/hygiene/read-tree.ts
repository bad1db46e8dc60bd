// Reads sitemap trees for the CLI, without a database: local files and folders, and URLs through the
// product's safe HTTP client (private addresses refused unless ALLOW_PRIVATE_NETWORK=true). Every file is
// streamed through the product's own reader (lib/sitemap/parse) into a visitor (the lint engine, or the
// diff's collector), so memory stays flat whatever the tree's size. Indexes are followed: a fetched
// index's children are fetched; a local index's children are read from the file of the same name beside
// it (a build folder holds the whole set), and not fetched.
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { sniffUploadIsIndex } from '@/lib/ingest/sniff-upload';
import { safeFetch } from '@/lib/net/safe-fetch';
import { classifySourceUrl, fallbackSitemapUrls } from '@/lib/sitemap/discover';
import { newParseStats, parseSitemapBatches } from '@/lib/sitemap/parse';
import { parseRobotsSitemaps } from '@/lib/sitemap/robots';
import { type ParseStats, type SitemapEntry, SitemapParseError } from '@/lib/sitemap/types';
import type { FileMeta } from './types';

export interface TreeVisitor {
  beginFile(meta: FileMeta): void;
  /** Returns the resolved child sitemaps named in the batch. */
  addEntries(batch: readonly SitemapEntry[]): string[];
  endFile(stats: ParseStats, error: { message: string; line?: number } | null): void;
  fileFailed(meta: FileMeta, message: string): void;
}

export interface ReadOptions {
  /** Site URL that relative locations of local files resolve against. */
  base?: string | null;
}

export interface Unreadable {
  file: string;
  line?: number;
  message: string;
}

/** Files read (indexes included) before the walk stops: a runaway index cannot make it endless. */
const MAX_FILES = 100_000;
const MAX_DEPTH = 5;
/** sitemaps.org allows 50 MiB; larger files are still read (up to this) so that the rule can say so. */
const MAX_FILE_BYTES = 200 * 1024 * 1024;
const SITEMAP_FILE = /\.(xml|txt|gz|rss|atom)$/i;

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
}

export class TreeReader {
  readonly unreadable: Unreadable[] = [];
  /** Children of local indexes with no file of the same name beside them: not read. */
  childrenNotFound = 0;
  private readonly seen = new Set<string>();
  private files = 0;

  constructor(
    private readonly visitor: TreeVisitor,
    private readonly options: ReadOptions = {},
  ) {}

  /** Reads every input (files, folders, sitemap / robots.txt / site URLs) and everything they lead to. */
  async read(inputs: readonly string[]): Promise<void> {
    for (const input of inputs) {
      if (isUrl(input)) await this.readUrlInput(input);
      else if (existsSync(input) && statSync(input).isDirectory()) {
        const files = readdirSync(input, { recursive: true, encoding: 'utf8' })
          .filter((name) => SITEMAP_FILE.test(name))
          .sort()
          .map((name) => path.join(input, name));
        // Indexes first (as ingestion reads uploads), so that the children they list are read through
        // them: with the URL the index gives them as their base.
        const indexes: string[] = [];
        const rest: string[] = [];
        for (const file of files) ((await sniffUploadIsIndex(file)) ? indexes : rest).push(file);
        for (const file of [...indexes, ...rest]) await this.walk({ kind: 'file', source: file, depth: 0 });
      } else await this.walk({ kind: 'file', source: input, depth: 0 });
    }
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
      if (this.seen.has(key) || task.depth > MAX_DEPTH || this.files >= MAX_FILES) continue;
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

  private childTask(parent: Task, child: string): Task | null {
    const depth = parent.depth + 1;
    if (parent.kind === 'url') return { kind: 'url', source: child, depth };
    const last = new URL(child).pathname.split('/').pop() ?? '';
    let name = last;
    try {
      name = decodeURIComponent(last);
    } catch {
      // A malformed percent sequence: the file may be named as written.
    }
    const local = path.join(path.dirname(parent.source), name);
    if (name === '' || !existsSync(local)) {
      this.childrenNotFound++;
      return null;
    }
    return { kind: 'file', source: local, depth, url: child };
  }

  private async readFile(task: Task): Promise<string[]> {
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
  private async readUrl(task: Task): Promise<string[] | null> {
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

  private async parse(meta: FileMeta, body: AsyncIterable<Uint8Array>): Promise<string[]> {
    const stats = newParseStats();
    const children: string[] = [];
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
