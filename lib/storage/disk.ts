// The disk driver: objects are files under a root folder (DATA_DIR/uploads), a key's segments its path.
// A write goes to a hidden file beside its target (no key starts with a dot) and is renamed into place
// once whole, so a reader never sees half an object and a failed write leaves nothing where the key points.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { capped } from './capped';
import { assertKey, assertPrefix } from './keys';
import { openLocalFile } from './local-file';
import { notFound, type ObjectStore, type WriteOptions } from './types';

/** Node 20.12 renamed Dirent's `path` to `parentPath`; 20.9 (the oldest we run on) has only `path`. */
function parentOf(entry: { parentPath?: string; path?: string }): string {
  return entry.parentPath ?? entry.path ?? '';
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export class DiskStore implements ObjectStore {
  readonly driver = 'disk';
  readonly where: string;

  constructor(readonly root: string) {
    this.where = root;
  }

  localPath(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  /** A hidden file in the target's folder (created), so the rename stays on one file system. */
  private async scratch(key: string): Promise<string> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    return path.join(path.dirname(target), `.${path.basename(target)}.${randomUUID()}.part`);
  }

  async write(key: string, body: AsyncIterable<Uint8Array>, options: WriteOptions = {}) {
    assertKey(key);
    const scratch = await this.scratch(key);
    const counted = capped(key, options.maxBytes);
    try {
      await pipeline(body, counted.transform, createWriteStream(scratch), {
        ...(options.signal ? { signal: options.signal } : {}),
      });
      await rename(scratch, this.localPath(key));
      return { bytes: counted.bytes() };
    } catch (error) {
      await rm(scratch, { force: true });
      throw options.signal?.aborted ? options.signal.reason : error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return openLocalFile(this.localPath(key), key, this.where, range);
  }

  async stat(key: string) {
    try {
      const info = await stat(this.localPath(key));
      return { bytes: info.size };
    } catch (error) {
      if (isMissing(error)) throw notFound(key, this.where, error);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.localPath(key)).then(
      (info) => info.isFile(),
      (error) => {
        if (isMissing(error)) return false;
        throw error;
      },
    );
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.localPath(from);
    const scratch = await this.scratch(to);
    try {
      await copyFile(source, scratch);
      await rename(scratch, this.localPath(to));
    } catch (error) {
      await rm(scratch, { force: true });
      if (isMissing(error)) throw notFound(from, this.where, error);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    let count = 0;
    for await (const _ of this.list(prefix)) count++;
    await rm(this.localPath(prefix.slice(0, -1)), { recursive: true, force: true, maxRetries: 3 });
    return count;
  }

  async *list(prefix: string): AsyncIterable<{ key: string; bytes: number }> {
    assertPrefix(prefix);
    const dir = this.localPath(prefix.slice(0, -1));
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error) => {
      if (isMissing(error)) return [];
      throw error;
    });
    const keys = entries
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
      .map((entry) =>
        path
          .relative(this.root, path.join(parentOf(entry), entry.name))
          .split(path.sep)
          .join('/'),
      )
      .sort();
    for (const key of keys) {
      const info = await stat(path.join(this.root, key)).catch(() => null);
      if (info) yield { key, bytes: info.size };
    }
  }
}
