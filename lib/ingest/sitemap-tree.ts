// Walks a sitemap tree (site root → robots.txt → indexes → urlsets, or uploaded files) and hands every
// file record and every batch of entries to a sink. No database here: the job handler supplies the sink.
// Each file is fetched once; cycles, depth, file and entry limits are enforced; one bad file never
// stops the others.
import { createReadStream } from 'node:fs';
import type { IngestLimits } from '@/lib/db/config';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError, type SafeFetchOptions } from '@/lib/net/types';
import { classifySourceUrl, fallbackSitemapUrls } from '@/lib/sitemap/discover';
import { newParseStats, parseSitemapBatches } from '@/lib/sitemap/parse';
import { parseRobotsSitemaps } from '@/lib/sitemap/robots';
import {
  type SitemapChildEntry,
  SitemapParseError,
  type SitemapUrlEntry,
  type SitemapWarning,
} from '@/lib/sitemap/types';
import { sniffUploadIsIndex } from './sniff-upload';

export interface UploadSource {
  fileName: string;
  storedPath: string;
}

export interface NewFileRecord {
  parentId: number | null;
  url: string | null;
  uploadName: string | null;
  kind: string | null;
  depth: number;
}

export interface FileOutcome {
  status: 'ok' | 'failed' | 'skipped';
  kind: string | null;
  httpStatus: number | null;
  finalUrl: string | null;
  compressedBytes: number | null;
  uncompressedBytes: number | null;
  entries: number;
  partial: boolean;
  error: { code: string; message: string; line?: number; column?: number } | null;
  warnings: SitemapWarning[];
  etag?: string | null;
  lastModified?: string | null;
}

export interface TreeSink {
  createFile(record: NewFileRecord): Promise<number>;
  /** Receives the entries of one file in order; returns when they are written. */
  openEntries(fileId: number): Promise<EntryWriter>;
  finishFile(fileId: number, outcome: FileOutcome): Promise<void>;
  /** Called after every file with the running totals (rows become visible only when the load commits). */
  progress(filesDone: number, filesKnown: number, summary: Readonly<TreeSummary>): Promise<void>;
}

export interface EntryWriter {
  write(entries: SitemapUrlEntry[]): Promise<void>;
  close(): Promise<void>;
}

export interface TreeIssue {
  code: string;
  message: string;
  source: string | null;
}

export interface TreeSummary {
  files: number;
  filesFailed: number;
  entries: number;
  errors: TreeIssue[];
  warnings: TreeIssue[];
}

type Origin = { type: 'url'; url: string } | { type: 'upload'; upload: UploadSource };

interface Task {
  origin: Origin;
  role: 'sitemap' | 'robots' | 'site-root';
  parentId: number | null;
  depth: number;
  /** Identities of the files above this one, to tell a cycle from a repeated child. */
  ancestors: string[];
  /** Fallback candidates of a site root: a 404 is expected and recorded as skipped. */
  optional?: boolean;
}

export interface WalkOptions {
  limits: IngestLimits;
  fetch?: SafeFetchOptions;
  signal?: AbortSignal;
}

function identity(origin: Origin): string {
  if (origin.type === 'upload') return `upload:${origin.upload.storedPath}`;
  try {
    const u = new URL(origin.url);
    u.hash = '';
    return u.href;
  } catch {
    return origin.url;
  }
}

function label(origin: Origin): string {
  return origin.type === 'url' ? origin.url : origin.upload.fileName;
}

function emptyOutcome(
  status: FileOutcome['status'],
  error: FileOutcome['error'],
  kind: string | null = null,
): FileOutcome {
  return {
    status,
    kind,
    httpStatus: null,
    finalUrl: null,
    compressedBytes: null,
    uncompressedBytes: null,
    entries: 0,
    partial: false,
    error,
    warnings: [],
  };
}

function httpReason(status: number): string {
  if (status === 404) return 'not found';
  if (status === 410) return 'gone';
  if (status === 401 || status === 403) return 'access denied';
  if (status === 429) return 'too many requests';
  if (status >= 500) return 'server error';
  return 'unexpected status';
}

class Walker {
  private readonly queue: Task[] = [];
  private readonly seen = new Map<string, string>();
  private readonly uploadsByName: UploadSource[];
  private readonly consumedUploads = new Set<string>();
  private filesCreated = 0;
  private filesDone = 0;
  private stopped = false;
  readonly summary: TreeSummary = { files: 0, filesFailed: 0, entries: 0, errors: [], warnings: [] };

  constructor(
    private readonly sink: TreeSink,
    private readonly options: WalkOptions,
    uploads: UploadSource[],
  ) {
    this.uploadsByName = uploads;
  }

  private get limits() {
    return this.options.limits;
  }

  async run(urls: string[], uploads: UploadSource[]): Promise<TreeSummary> {
    // Uploaded indexes go first so that uploaded children they name are read through them, once.
    const indexFirst: UploadSource[] = [];
    const rest: UploadSource[] = [];
    for (const upload of uploads)
      ((await sniffUploadIsIndex(upload.storedPath)) ? indexFirst : rest).push(upload);
    await this.readUploads(indexFirst);
    for (const url of urls) this.queue.push(this.rootTask({ type: 'url', url }, classifySourceUrl(url)));
    await this.drain();
    await this.readUploads(rest);
    return this.summary;
  }

  /** One upload at a time, skipping those an earlier uploaded index already read as its child. */
  private async readUploads(uploads: UploadSource[]): Promise<void> {
    for (const upload of uploads) {
      if (this.consumedUploads.has(upload.storedPath)) continue;
      this.queue.push(this.rootTask({ type: 'upload', upload }, 'sitemap'));
      await this.drain();
    }
  }

  private rootTask(origin: Origin, role: Task['role']): Task {
    return { origin, role, parentId: null, depth: 0, ancestors: [] };
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const task = this.queue.shift() as Task;
      if (this.options.signal?.aborted) throw new Error('ingest cancelled');
      if (this.stopped) {
        await this.record(
          task,
          emptyOutcome('skipped', { code: 'limit_reached', message: 'Skipped: an ingest limit was reached' }),
        );
        continue;
      }
      await this.process(task);
    }
  }

  private async record(task: Task, outcome: FileOutcome, kind: string | null = null): Promise<number> {
    const id = await this.createFile(task, kind);
    await this.finish(id, task, outcome);
    return id;
  }

  private async createFile(task: Task, kind: string | null): Promise<number> {
    this.filesCreated += 1;
    return this.sink.createFile({
      parentId: task.parentId,
      url: task.origin.type === 'url' ? task.origin.url : null,
      uploadName: task.origin.type === 'upload' ? task.origin.upload.fileName : null,
      kind,
      depth: task.depth,
    });
  }

  private async finish(id: number, task: Task, outcome: FileOutcome): Promise<void> {
    await this.sink.finishFile(id, outcome);
    this.filesDone += 1;
    this.summary.files += 1;
    if (outcome.status === 'failed') {
      this.summary.filesFailed += 1;
      if (outcome.error)
        this.summary.errors.push({
          code: outcome.error.code,
          message: outcome.error.message,
          source: label(task.origin),
        });
    } else if (outcome.status === 'skipped' && outcome.error && outcome.error.code !== 'duplicate_child') {
      this.summary.warnings.push({
        code: outcome.error.code,
        message: outcome.error.message,
        source: label(task.origin),
      });
    }
    await this.sink.progress(this.filesDone, this.filesDone + this.queue.length, this.summary);
  }

  private async process(task: Task): Promise<void> {
    const key = identity(task.origin);
    const firstSeenBy = this.seen.get(key);
    if (firstSeenBy !== undefined) {
      const cycle = task.ancestors.includes(key);
      await this.record(
        task,
        emptyOutcome('skipped', {
          code: cycle ? 'cycle' : 'duplicate_child',
          message: cycle
            ? `Skipped: ${label(task.origin)} lists itself or one of its ancestors (a cycle)`
            : `Skipped: ${label(task.origin)} was already read (listed more than once)`,
        }),
      );
      return;
    }
    if (this.filesCreated >= this.limits.maxFiles) {
      this.stopped = true;
      this.summary.errors.push({
        code: 'too_many_files',
        message: `Stopped after ${this.limits.maxFiles} files (SITEMAP_MAX_FILES); the rest of the tree was not read`,
        source: null,
      });
      await this.record(
        task,
        emptyOutcome('skipped', { code: 'limit_reached', message: 'Skipped: file limit reached' }),
      );
      return;
    }
    if (task.depth > this.limits.maxDepth) {
      await this.record(
        task,
        emptyOutcome('skipped', {
          code: 'too_deep',
          message: `Skipped: nested deeper than ${this.limits.maxDepth} levels (SITEMAP_MAX_DEPTH)`,
        }),
      );
      return;
    }
    this.seen.set(key, label(task.origin));
    if (task.role === 'sitemap') await this.processSitemap(task, key);
    else await this.processRobots(task);
  }

  private async open(task: Task): Promise<
    | {
        ok: true;
        body: AsyncIterable<Uint8Array>;
        httpStatus: number | null;
        finalUrl: string | null;
        wire: () => number | null;
        etag: string | null;
        lastModified: string | null;
      }
    | { ok: false; outcome: FileOutcome }
  > {
    const origin = task.origin;
    if (origin.type === 'upload') {
      return {
        ok: true,
        body: createReadStream(origin.upload.storedPath, { highWaterMark: 256 * 1024 }),
        httpStatus: null,
        finalUrl: null,
        wire: () => null,
        etag: null,
        lastModified: null,
      };
    }
    try {
      const response = await safeFetch(origin.url, {
        maxBytes: this.limits.maxFileBytes,
        timeoutMs: this.limits.fetchTimeoutMs,
        retries: this.limits.fetchRetries,
        signal: this.options.signal,
        ...this.options.fetch,
      });
      if (response.status >= 400) {
        response.body.destroy();
        const attempts = response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
        const outcome = emptyOutcome(task.optional && response.status === 404 ? 'skipped' : 'failed', {
          code: `http_${response.status}`,
          message: `HTTP ${response.status} (${httpReason(response.status)})${attempts}`,
        });
        outcome.httpStatus = response.status;
        outcome.finalUrl = response.url;
        return { ok: false, outcome };
      }
      const header = (name: string) => {
        const value = response.headers[name];
        return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
      };
      return {
        ok: true,
        body: response.body,
        httpStatus: response.status,
        finalUrl: response.url,
        wire: () => response.compressedBytes(),
        etag: header('etag'),
        lastModified: header('last-modified'),
      };
    } catch (error) {
      if (error instanceof NetError)
        return { ok: false, outcome: emptyOutcome('failed', { code: error.code, message: error.message }) };
      throw error;
    }
  }

  private async processRobots(task: Task): Promise<void> {
    const origin = task.origin as { type: 'url'; url: string };
    const robotsUrl = task.role === 'site-root' ? new URL('/robots.txt', origin.url).href : origin.url;
    const robotsTask: Task = { ...task, origin: { type: 'url', url: robotsUrl }, role: 'robots' };
    if (robotsUrl !== origin.url) this.seen.set(identity(robotsTask.origin), robotsUrl);
    const id = await this.createFile(robotsTask, 'robots');
    const opened = await this.open(robotsTask);
    let sitemaps: string[] = [];
    let outcome: FileOutcome;
    if (!opened.ok) {
      outcome = opened.outcome;
      outcome.kind = 'robots';
      if (task.role === 'site-root' && outcome.httpStatus === 404) outcome.status = 'skipped';
    } else {
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of opened.body) {
          size += chunk.length;
          if (size > 512 * 1024)
            throw new NetError('too_large', robotsUrl, `${robotsUrl} is larger than 512 KB`);
          chunks.push(Buffer.from(chunk));
        }
        const parsed = parseRobotsSitemaps(Buffer.concat(chunks), opened.finalUrl ?? robotsUrl);
        sitemaps = parsed.sitemaps;
        outcome = { ...emptyOutcome('ok', null, 'robots'), warnings: parsed.notes, entries: sitemaps.length };
      } catch (error) {
        if (!(error instanceof NetError)) throw error;
        outcome = emptyOutcome('failed', { code: error.code, message: error.message }, 'robots');
      }
      outcome.httpStatus = opened.httpStatus;
      outcome.finalUrl = opened.finalUrl;
      outcome.uncompressedBytes = size;
      outcome.compressedBytes = opened.wire();
    }
    const siteHost = new URL(robotsUrl).host;
    for (const sitemap of sitemaps) {
      if (new URL(sitemap).host !== siteHost) {
        this.summary.warnings.push({
          code: 'cross_host_sitemap',
          message: `robots.txt at ${robotsUrl} points to a sitemap on another host: ${sitemap}`,
          source: robotsUrl,
        });
      }
      this.queue.push({
        origin: { type: 'url', url: sitemap },
        role: 'sitemap',
        parentId: id,
        depth: task.depth + 1,
        ancestors: [...task.ancestors, identity(robotsTask.origin)],
      });
    }
    if (sitemaps.length === 0 && task.role === 'site-root') {
      if (outcome.status === 'ok')
        outcome.warnings.push({
          code: 'no_sitemap_lines',
          message: 'robots.txt declares no Sitemap: lines; trying the usual locations',
        });
      await this.finish(id, robotsTask, outcome);
      await this.tryFallbacks(task, id);
      return;
    }
    if (sitemaps.length === 0 && outcome.status === 'ok') {
      this.summary.errors.push({
        code: 'no_sitemap_found',
        message: `${robotsUrl} declares no Sitemap: lines`,
        source: robotsUrl,
      });
    }
    await this.finish(id, robotsTask, outcome);
  }

  private async tryFallbacks(task: Task, parentId: number): Promise<void> {
    const origin = task.origin as { type: 'url'; url: string };
    for (const url of fallbackSitemapUrls(origin.url)) {
      const fallback: Task = {
        origin: { type: 'url', url },
        role: 'sitemap',
        parentId,
        depth: task.depth + 1,
        ancestors: [],
        optional: true,
      };
      const status = await this.processSitemapTask(fallback);
      if (status !== 'missing') return;
    }
    this.summary.errors.push({
      code: 'no_sitemap_found',
      message: `No sitemap found for ${origin.url}: robots.txt lists none and /sitemap.xml, /sitemap_index.xml and /sitemap.txt are missing`,
      source: origin.url,
    });
  }

  private async processSitemapTask(task: Task): Promise<'missing' | 'done'> {
    const key = identity(task.origin);
    this.seen.set(key, label(task.origin));
    return this.processSitemap(task, key);
  }

  private async processSitemap(task: Task, key: string): Promise<'missing' | 'done'> {
    const id = await this.createFile(task, null);
    const opened = await this.open(task);
    if (!opened.ok) {
      await this.finish(id, task, opened.outcome);
      return opened.outcome.status === 'skipped' ? 'missing' : 'done';
    }
    const stats = newParseStats();
    const children: SitemapChildEntry[] = [];
    let written = 0;
    let error: FileOutcome['error'] = null;
    let truncatedByLimit = false;
    const writer = await this.sink.openEntries(id);
    try {
      for await (const batch of parseSitemapBatches(opened.body, stats, {
        maxUncompressedBytes: this.limits.maxFileBytes,
        fileName: label(task.origin),
      })) {
        let urls: SitemapUrlEntry[] = [];
        for (const entry of batch) {
          if (entry.type === 'url') urls.push(entry);
          else if (children.length < this.limits.maxFiles) children.push(entry);
        }
        const room = this.limits.maxEntries - this.summary.entries;
        if (urls.length > room) {
          urls = urls.slice(0, Math.max(0, room));
          truncatedByLimit = true;
        }
        if (urls.length > 0) {
          await writer.write(urls);
          written += urls.length;
          this.summary.entries += urls.length;
        }
        if (truncatedByLimit) break;
      }
    } catch (caught) {
      if (caught instanceof SitemapParseError) {
        error = { code: caught.code, message: caught.message, line: caught.line, column: caught.column };
      } else if (caught instanceof NetError) {
        error = { code: caught.code, message: caught.message };
      } else {
        await writer.close().catch(() => {});
        throw caught;
      }
    } finally {
      if ('destroy' in opened.body && typeof opened.body.destroy === 'function') opened.body.destroy();
    }
    await writer.close();
    if (truncatedByLimit) {
      this.stopped = true;
      error = {
        code: 'too_many_entries',
        message: `Stopped at ${this.limits.maxEntries.toLocaleString('en-US')} entries (SITEMAP_MAX_ENTRIES); the rest was not read`,
      };
    }
    const outcome: FileOutcome = {
      status: error ? 'failed' : 'ok',
      kind: stats.kind,
      httpStatus: opened.httpStatus,
      finalUrl: opened.finalUrl,
      compressedBytes: opened.wire() ?? stats.compressedBytes,
      uncompressedBytes: stats.uncompressedBytes,
      entries: written + children.length,
      partial: Boolean(error) && written + children.length > 0,
      error,
      warnings: stats.warnings,
      etag: opened.etag,
      lastModified: opened.lastModified,
    };
    this.enqueueChildren(task, key, id, children, opened.finalUrl);
    await this.finish(id, task, outcome);
    return 'done';
  }

  private enqueueChildren(
    task: Task,
    key: string,
    id: number,
    children: SitemapChildEntry[],
    base: string | null,
  ) {
    if (children.length === 0) return;
    const depth = task.depth + 1;
    const ancestors = [...task.ancestors, key];
    for (const child of children) {
      const upload = task.origin.type === 'upload' ? this.matchUpload(child.loc) : undefined;
      let origin: Origin;
      if (upload) {
        this.consumedUploads.add(upload.storedPath);
        origin = { type: 'upload', upload };
      } else {
        let resolved: string;
        try {
          resolved = new URL(child.loc, base ?? undefined).href;
        } catch {
          this.summary.warnings.push({
            code: 'bad_child_url',
            message: `Index entry ${child.position} has an invalid URL: ${child.loc}`,
            source: label(task.origin),
          });
          continue;
        }
        origin = { type: 'url', url: resolved };
      }
      this.queue.push({ origin, role: 'sitemap', parentId: id, depth, ancestors });
    }
  }

  /** An uploaded index's child whose URL ends in the name of another uploaded file reads that file. */
  private matchUpload(loc: string): UploadSource | undefined {
    let pathPart = loc;
    try {
      pathPart = decodeURIComponent(new URL(loc).pathname);
    } catch {
      // relative or invalid: compare the raw text
    }
    return this.uploadsByName.find(
      (u) => pathPart === u.fileName || pathPart.endsWith(`/${u.fileName}`) || loc.endsWith(`/${u.fileName}`),
    );
  }
}

export async function walkSitemapTree(
  urls: string[],
  uploads: UploadSource[],
  sink: TreeSink,
  options: WalkOptions,
): Promise<TreeSummary> {
  const walker = new Walker(sink, options, uploads);
  return walker.run(urls, uploads);
}
