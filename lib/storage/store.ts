// The store of this process, chosen from the environment (config.ts) and rebuilt when that changes
// (tests switch drivers), and the reads of a stored upload reference: a key of the store, or an absolute
// path of this machine for rows written before lib/storage (and by tests and the benchmark).

import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { uploadsDir } from '@/lib/db/config';
import { type StorageConfig, storageConfig } from './config';
import { DiskStore } from './disk';
import { assertPrefix } from './keys';
import { openLocalFile } from './local-file';
import { notFound, type ObjectStore } from './types';

let current: { signature: string; store: Promise<ObjectStore> } | null = null;

async function build(config: StorageConfig): Promise<ObjectStore> {
  if (config.driver === 'disk') return new DiskStore(config.root);
  // Loaded only when configured: the SDK adds about 23 MB to a process that stores on disk.
  const { openS3Store } = await import('./s3');
  return openS3Store(config);
}

/** The store the environment configures; throws a StorageError naming what is missing when the S3
 * variables are only partly set. */
export function storage(): Promise<ObjectStore> {
  const config = storageConfig();
  const signature = JSON.stringify(config);
  if (current?.signature !== signature) current = { signature, store: build(config) };
  return current.store;
}

/** A stored upload as recorded on its row: a store key, or (older rows) an absolute path. */
export function isLocalPath(ref: string): boolean {
  return path.isAbsolute(ref);
}

const LOCAL = 'the local file system';

export async function openStored(ref: string, range?: { start: number; end: number }): Promise<Readable> {
  if (isLocalPath(ref)) return openLocalFile(ref, ref, LOCAL, range);
  return (await storage()).read(ref, range);
}

export async function statStored(ref: string): Promise<{ bytes: number }> {
  if (!isLocalPath(ref)) return (await storage()).stat(ref);
  try {
    return { bytes: (await stat(ref)).size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(ref, LOCAL, error);
    throw error;
  }
}

/** Copies a stored upload to `to` in the store (a repeated run's sources). */
export async function copyStored(ref: string, to: string): Promise<void> {
  const store = await storage();
  if (isLocalPath(ref)) await store.write(to, await openLocalFile(ref, ref, LOCAL));
  else await store.copy(ref, to);
}

/** Removes every object under `prefix`, and the folder of the same name under DATA_DIR/uploads where
 * uploads were kept by path before (its rows' absolute paths point there). */
export async function removeStoredPrefix(prefix: string): Promise<void> {
  assertPrefix(prefix);
  await (await storage()).deletePrefix(prefix);
  await rm(path.join(uploadsDir(), ...prefix.slice(0, -1).split('/')), {
    recursive: true,
    force: true,
    maxRetries: 3,
  });
}

/**
 * Runs `use` with the upload as a file of this machine, for readers that need one (a zip is read by
 * seeking): the file itself on disk, else a copy in a temporary folder removed afterwards. The caller
 * bounds the size (the uploads it is used for are capped).
 */
export async function withLocalFile<T>(ref: string, use: (file: string) => Promise<T>): Promise<T> {
  if (isLocalPath(ref)) return use(ref);
  const store = await storage();
  if (store.localPath) {
    await store.stat(ref);
    return use(store.localPath(ref));
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sitemap-audit-object-'));
  try {
    const file = path.join(dir, 'object');
    await pipeline(await store.read(ref), createWriteStream(file));
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
