// Fetches the files the walk will read next, several at once, so a tree of slow or hanging children
// costs about (children / per-host concurrency) × the per-file timeout instead of their sum. Each
// file is downloaded into memory (up to 8 MiB) and past that into a spool file in a private temporary
// folder; the walk still parses the files one after another in queue order, so file ids, positions
// and entry order never depend on timing. A slot is held from the start of a download until the walk
// has read the file, which bounds the connections, the memory (8 MiB a slot) and the spooled bytes
// (at most SITEMAP_FETCH_CONCURRENCY files).
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NetError } from '@/lib/net/types';
import { type FetchBudget, FetchBudgetError } from './fetch-budget';
import { emptyOutcome } from './file-outcome';
import { type OpenResult, openSource } from './open-source';
import type { WalkOptions } from './tree-types';

interface Slot {
  url: string;
  host: string;
  optional: boolean;
  /** Validators of the site's previous copy (a conditional request), if any. */
  conditions: Record<string, string> | undefined;
  started: boolean;
  stop: AbortController;
  result: Promise<OpenResult> | null;
  spoolPath: string | null;
}

/** Pending files examined per scheduling pass: keeps one host's long queue from costing O(n²). */
const SCAN_LIMIT = 256;
/** A body up to this size stays in memory; writing and re-reading the typical sitemap cost 25 %. */
const MEMORY_SPOOL_BYTES = 8 * 1024 * 1024;

export class Prefetcher {
  // Insertion order is queue order: started slots first, then those waiting.
  private readonly slots = new Map<string, Slot>();
  private readonly perHost = new Map<string, number>();
  private running = 0;
  private dir: Promise<string> | null = null;
  private spools = 0;

  constructor(
    private readonly options: WalkOptions,
    private readonly budget: FetchBudget,
  ) {}

  /** Notes a file the walk will read; it is fetched as soon as a slot (overall and per host) is free. */
  want(key: string, url: string, optional = false, conditions?: Record<string, string>): void {
    if (this.slots.has(key) || this.budget.spent) return;
    let host = '';
    try {
      host = new URL(url).host;
    } catch {
      // An unparsable URL fails in safeFetch with a clear message; it shares the '' host.
    }
    this.slots.set(key, {
      url,
      host,
      optional,
      conditions,
      started: false,
      stop: new AbortController(),
      result: null,
      spoolPath: null,
    });
    this.pump();
  }

  /** The file, downloaded (or failed); starts it now if it was still waiting, whatever the limits. */
  take(key: string, url: string, optional = false, conditions?: Record<string, string>): Promise<OpenResult> {
    if (!this.slots.has(key)) {
      this.slots.set(key, {
        url,
        host: '',
        optional,
        conditions,
        started: false,
        stop: new AbortController(),
        result: null,
        spoolPath: null,
      });
    }
    const slot = this.slots.get(key) as Slot;
    if (!slot.started) this.start(slot);
    return slot.result as Promise<OpenResult>;
  }

  /** The walk is done with the file (read, or skipped): stops its download, frees its slot and spool. */
  async release(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    slot.stop.abort();
    if (slot.started) {
      this.running--;
      this.perHost.set(slot.host, (this.perHost.get(slot.host) ?? 1) - 1);
      await slot.result?.catch(() => {});
      if (slot.spoolPath) await rm(slot.spoolPath, { force: true });
    }
    this.pump();
  }

  /** Stops everything and removes the spool folder. */
  async close(): Promise<void> {
    for (const key of [...this.slots.keys()]) await this.release(key);
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
  }

  private pump(): void {
    const { fetchConcurrency, fetchPerHost } = this.options.limits;
    let scanned = 0;
    for (const slot of this.slots.values()) {
      if (this.running >= fetchConcurrency || this.budget.spent) return;
      if (slot.started) continue;
      if (++scanned > SCAN_LIMIT) return;
      if ((this.perHost.get(slot.host) ?? 0) < fetchPerHost) this.start(slot);
    }
  }

  private start(slot: Slot): void {
    slot.started = true;
    this.running++;
    this.perHost.set(slot.host, (this.perHost.get(slot.host) ?? 0) + 1);
    slot.result = this.download(slot);
  }

  private async download(slot: Slot): Promise<OpenResult> {
    try {
      const opened = await openSource(
        { type: 'url', url: slot.url },
        this.options,
        slot.optional,
        this.budget,
        slot.stop.signal,
        slot.conditions,
      );
      if (!opened.ok) return opened;
      return await spool(opened, async () => {
        this.dir ??= spoolFolder();
        slot.spoolPath = path.join(await this.dir, `${++this.spools}.body`);
        return slot.spoolPath;
      });
    } catch (error) {
      // Never rejects: whatever went wrong is this file's outcome.
      const known = error instanceof NetError || error instanceof FetchBudgetError;
      return {
        ok: false,
        outcome: emptyOutcome('failed', {
          code: known ? error.code : 'fetch_failed',
          message: known ? error.message : `Unexpected failure while fetching ${slot.url.slice(0, 200)}`,
        }),
      };
    }
  }
}

const SPOOL_PREFIX = 'sitemap-audit-spool-';

/** A private folder named after this process; folders of processes that died (a worker killed
 * mid-ingest never ran its cleanup) are removed first. */
async function spoolFolder(): Promise<string> {
  const base = os.tmpdir();
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const pid = Number(/^sitemap-audit-spool-(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !isAlive(pid)) {
      await rm(path.join(base, name), { recursive: true, force: true }).catch(() => {});
    }
  }
  return mkdtemp(path.join(base, `${SPOOL_PREFIX}${process.pid}-`));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Downloads the body, into memory and past MEMORY_SPOOL_BYTES into the file `spoolFile()` names; the
 * result replays it, then throws the error that ended it, if any, so entries before a cut-off
 * (too_large, timeout) are kept as when streaming. */
async function spool(
  opened: Extract<OpenResult, { ok: true }>,
  spoolFile: () => Promise<string>,
): Promise<OpenResult> {
  const chunks: Uint8Array[] = [];
  let held = 0;
  let handle: FileHandle | null = null;
  let file: string | null = null;
  let failure: unknown = null;
  try {
    for await (const chunk of opened.body) {
      if (handle) {
        await handle.write(chunk);
        continue;
      }
      chunks.push(chunk);
      held += chunk.length;
      if (held > MEMORY_SPOOL_BYTES) {
        file = await spoolFile();
        handle = await open(file, 'w', 0o600);
        for (const kept of chunks.splice(0)) await handle.write(kept);
      }
    }
  } catch (error) {
    failure = error;
  } finally {
    await handle?.close();
  }
  const wire = opened.wire();
  return { ...opened, body: replay(file, chunks, failure), wire: () => wire };
}

async function* replay(
  file: string | null,
  chunks: Uint8Array[],
  failure: unknown,
): AsyncGenerator<Uint8Array> {
  if (file === null) yield* chunks.splice(0);
  else yield* createReadStream(file, { highWaterMark: 256 * 1024 });
  if (failure !== null) throw failure;
}
