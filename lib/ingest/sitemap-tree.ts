// Walks a sitemap tree (site root → robots.txt → indexes → urlsets, or uploaded files) and hands every
// file record and every batch of entries to a sink. No database here: the job handler supplies the sink.
// Each file is fetched once (several at once, see prefetch.ts, but read in queue order); cycles, depth,
// file and entry limits and the audit's fetch budget are enforced; one bad file never stops the others:
// whatever goes wrong while fetching or parsing a file is that file's error.

import { formatBytes, InflateBudget } from '@/lib/inflate/budget';
import { classifySourceUrl, fallbackSitemapUrls } from '@/lib/sitemap/discover';
import { newParseStats, parseSitemapBatches } from '@/lib/sitemap/parse';
import type { SitemapChildEntry, SitemapUrlEntry } from '@/lib/sitemap/types';
import { conditionalHeaders, notModifiedWithoutCopy, reusedChildren, reusedOutcome } from './conditional';
import { FetchBudget } from './fetch-budget';
import { emptyOutcome, fileError } from './file-outcome';
import { type OpenResult, openSource } from './open-source';
import { childOrigin, identity, label, type Origin } from './origin';
import { Prefetcher } from './prefetch';
import { readRobots } from './read-robots';
import { sniffUploadIsIndex } from './sniff-upload';
import type {
  FileOutcome,
  PreviousCopy,
  TreeSink,
  TreeSummary,
  UploadSource,
  WalkOptions,
} from './tree-types';

interface Task {
  origin: Origin;
  role: 'sitemap' | 'robots' | 'site-root';
  parentId: number | null;
  depth: number;
  /** Identities of the files above this one, to tell a cycle from a repeated child. */
  ancestors: string[];
  /** Fallback candidates of a site root: a 404 is expected and recorded as skipped. */
  optional?: boolean;
  /** A child of an index: its entry as the index declared it. */
  listed?: { loc: string; lastmod: string | null };
}

class Walker {
  private readonly queue: Task[] = [];
  private readonly seen = new Map<string, string>();
  private readonly uploadsByName: UploadSource[];
  private readonly consumedUploads = new Set<string>();
  private filesCreated = 0;
  private filesDone = 0;
  /** Roots (sitemap URLs, uploads) not queued yet: uploads are queued one at a time, and a total
   * without them read "1 of 1" after the first of several uploads. */
  private rootsPending = 0;
  private stopped = false;
  /** The budgets the summary already says are spent (their error codes), each said once. */
  private readonly budgetsNoted = new Set<string>();
  private readonly budget: FetchBudget;
  /** Uncompressed bytes of all the audit's sitemap files: a few small gzip uploads (or fetched .gz
   * files) must not inflate without end, each under the per-file cap. */
  private readonly inflated: InflateBudget;
  private readonly prefetcher: Prefetcher;
  readonly summary: TreeSummary = {
    files: 0,
    filesFailed: 0,
    entries: 0,
    reused: 0,
    errors: [],
    warnings: [],
  };

  constructor(
    private readonly sink: TreeSink,
    private readonly options: WalkOptions,
    uploads: UploadSource[],
  ) {
    this.uploadsByName = uploads;
    this.budget = new FetchBudget(options.limits);
    this.inflated = new InflateBudget({
      limit: options.limits.auditInflatedBytes,
      setting: 'SITEMAP_AUDIT_INFLATED_BYTES',
      scope: "one audit's sitemap files",
    });
    this.prefetcher = new Prefetcher(options, this.budget);
  }

  private get limits() {
    return this.options.limits;
  }

  async run(urls: string[], uploads: UploadSource[]): Promise<TreeSummary> {
    try {
      this.rootsPending = urls.length + uploads.length;
      // Uploaded indexes go first so that uploaded children they name are read through them, once.
      const indexFirst: UploadSource[] = [];
      const rest: UploadSource[] = [];
      for (const upload of uploads)
        ((await sniffUploadIsIndex(upload.storedPath)) ? indexFirst : rest).push(upload);
      await this.readUploads(indexFirst);
      for (const url of urls) {
        this.rootsPending -= 1;
        this.enqueue(this.rootTask({ type: 'url', url }, classifySourceUrl(url)));
      }
      await this.drain();
      await this.readUploads(rest);
      return this.summary;
    } finally {
      this.budget.close();
      await this.prefetcher.close();
    }
  }

  /** Queues a task; a sitemap to fetch is handed to the prefetcher in the same (queue) order. */
  private enqueue(task: Task): void {
    this.queue.push(task);
    if (task.role !== 'sitemap' || task.origin.type !== 'url' || this.stopped) return;
    const key = identity(task.origin);
    if (this.seen.has(key) || task.depth > this.limits.maxDepth) return;
    this.prefetcher.want(key, task.origin.url, task.optional, this.conditionsFor(task.origin.url));
  }

  /** The site's previous copy of a URL, when the sink can reuse it (a conditional fetch). */
  private previousCopy(url: string): PreviousCopy | undefined {
    return this.sink.reuseEntries ? this.options.previous?.get(url) : undefined;
  }

  private conditionsFor(url: string): Record<string, string> | undefined {
    return conditionalHeaders(this.previousCopy(url));
  }

  /** Once the audit's fetch budget is spent, files still to fetch are skipped with its reason; once its
   * budget of inflated bytes is, every file still to read. */
  private async skipForBudget(task: Task): Promise<boolean> {
    if (this.inflated.remaining === 0) {
      const { limit, setting, scope } = this.inflated.options;
      const reason = `the ${formatBytes(limit)} of uncompressed data ${scope} may hold (${setting}) is spent`;
      return this.skipSpent(task, 'inflate_budget_spent', 'Stopped reading', reason);
    }
    if (task.origin.type !== 'url' || !this.budget.spent) return false;
    return this.skipSpent(task, 'audit_budget_spent', 'Stopped fetching', this.budget.reason as string);
  }

  /** Skips `task` because a budget is spent: the audit's summary says so once per budget, the file says why. */
  private async skipSpent(task: Task, code: string, stopped: string, reason: string): Promise<boolean> {
    if (!this.budgetsNoted.has(code)) {
      this.budgetsNoted.add(code);
      this.summary.errors.push({
        code,
        message: `${stopped}: ${reason}; the files not read yet are listed as skipped`,
        source: null,
      });
    }
    if (task.origin.type === 'url') await this.prefetcher.release(identity(task.origin));
    await this.record(task, emptyOutcome('skipped', { code, message: `Skipped: ${reason}` }));
    return true;
  }

  /** One upload at a time, skipping those an earlier uploaded index already read as its child. */
  private async readUploads(uploads: UploadSource[]): Promise<void> {
    for (const upload of uploads) {
      this.rootsPending -= 1;
      if (this.consumedUploads.has(upload.storedPath)) continue;
      this.enqueue(this.rootTask({ type: 'upload', upload }, 'sitemap'));
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
        await this.prefetcher.release(identity(task.origin));
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
      listedLoc: task.listed?.loc ?? null,
      listedLastmod: task.listed?.lastmod ?? null,
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
    await this.sink.progress(
      this.filesDone,
      this.filesDone + this.queue.length + this.rootsPending,
      this.summary,
    );
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
      await this.prefetcher.release(key);
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
    if (await this.skipForBudget(task)) return;
    this.seen.set(key, label(task.origin));
    if (task.role === 'sitemap') await this.processSitemap(task, key);
    else await this.processRobots(task);
  }

  private async processRobots(task: Task): Promise<void> {
    const origin = task.origin as { type: 'url'; url: string };
    const robotsUrl = task.role === 'site-root' ? new URL('/robots.txt', origin.url).href : origin.url;
    const robotsTask: Task = { ...task, origin: { type: 'url', url: robotsUrl }, role: 'robots' };
    if (robotsUrl !== origin.url) this.seen.set(identity(robotsTask.origin), robotsUrl);
    const id = await this.createFile(robotsTask, 'robots');
    const opened = await openSource(robotsTask.origin, this.options, robotsTask.optional, this.budget);
    const { outcome, sitemaps } = await readRobots(opened, robotsUrl, task.role === 'site-root');
    const siteHost = new URL(robotsUrl).host;
    for (const sitemap of sitemaps) {
      if (new URL(sitemap).host !== siteHost) {
        this.summary.warnings.push({
          code: 'cross_host_sitemap',
          message: `robots.txt at ${robotsUrl} points to a sitemap on another host: ${sitemap}`,
          source: robotsUrl,
        });
      }
      this.enqueue({
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
    if (await this.skipForBudget(task)) return 'done';
    const key = identity(task.origin);
    this.seen.set(key, label(task.origin));
    return this.processSitemap(task, key);
  }

  private async processSitemap(task: Task, key: string): Promise<'missing' | 'done'> {
    const id = await this.createFile(task, null);
    try {
      return await this.readSitemap(task, key, id);
    } finally {
      await this.prefetcher.release(key);
    }
  }

  private open(task: Task, key: string): Promise<OpenResult> {
    const origin = task.origin;
    if (origin.type === 'url')
      return this.prefetcher.take(key, origin.url, task.optional, this.conditionsFor(origin.url));
    return openSource(origin, this.options, task.optional, this.budget);
  }

  private async readSitemap(task: Task, key: string, id: number): Promise<'missing' | 'done'> {
    const opened = await this.open(task, key);
    if (!opened.ok) {
      const copy = task.origin.type === 'url' ? this.previousCopy(task.origin.url) : undefined;
      if (opened.notModified && copy) {
        await this.reuse(task, key, id, copy, { ...opened.notModified, finalUrl: opened.outcome.finalUrl });
        return 'done';
      }
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
        maxLocChars: this.limits.maxLocChars,
        maxXmlDepth: this.limits.maxXmlDepth,
        fileName: label(task.origin),
        budget: this.inflated,
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
          await writer.write(urls).catch((cause) => {
            throw new SinkFailure(cause);
          });
          written += urls.length;
          this.summary.entries += urls.length;
        }
        if (truncatedByLimit) break;
      }
    } catch (caught) {
      // Only the database failing fails the walk; anything else in this file's path is its error.
      if (caught instanceof SinkFailure || this.options.signal?.aborted) {
        await writer.close().catch(() => {});
        throw caught instanceof SinkFailure ? caught.cause : caught;
      }
      error = fileError(caught, label(task.origin));
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
      contentType: opened.contentType,
      contentEncoding: opened.contentEncoding,
      gzipped: stats.gzip,
      hasBom: stats.bom,
      rootTag: stats.rootTag ?? null,
    };
    this.enqueueChildren(task, key, id, children, opened.finalUrl);
    await this.finish(id, task, outcome);
    return 'done';
  }

  /** A 304 Not Modified: the previous copy's entries are copied and its children walked, as if the file
   * had been downloaded and parsed again. */
  private async reuse(
    task: Task,
    key: string,
    id: number,
    copy: PreviousCopy,
    answer: { finalUrl: string | null; etag: string | null; lastModified: string | null },
  ): Promise<void> {
    const room = Math.max(0, this.limits.maxEntries - this.summary.entries);
    const copied = await (this.sink.reuseEntries as NonNullable<TreeSink['reuseEntries']>)(id, copy, room);
    if (copied === null) {
      await this.finish(id, task, { ...notModifiedWithoutCopy('vanished'), finalUrl: answer.finalUrl });
      return;
    }
    this.summary.entries += copied;
    const children = reusedChildren(copy, this.limits.maxFiles);
    const outcome = reusedOutcome(copy, answer, copied + children.length);
    if (copied >= room && copy.entries - copy.children.length > copied) {
      this.stopped = true;
      outcome.status = 'failed';
      outcome.partial = outcome.entries > 0;
      outcome.error = {
        code: 'too_many_entries',
        message: `Stopped at ${this.limits.maxEntries.toLocaleString('en-US')} entries (SITEMAP_MAX_ENTRIES); the rest was not read`,
      };
    } else {
      this.summary.reused += 1;
    }
    this.enqueueChildren(task, key, id, children, answer.finalUrl);
    await this.finish(id, task, outcome);
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
      const origin = childOrigin(child.loc, base, task.origin.type === 'upload' ? this.uploadsByName : null);
      if (!origin) {
        this.summary.warnings.push({
          code: 'bad_child_url',
          message: `${label(task.origin)}: index entry ${child.position} has an invalid URL: ${child.loc}`,
          source: label(task.origin),
        });
        continue;
      }
      if (origin.type === 'upload') this.consumedUploads.add(origin.upload.storedPath);
      this.enqueue({
        origin,
        role: 'sitemap',
        parentId: id,
        depth,
        ancestors,
        listed: { loc: child.loc, lastmod: child.lastmodRaw },
      });
    }
  }
}

/** A write to the sink failed: the database, not the file, is at fault. */
class SinkFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('writing entries failed');
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
