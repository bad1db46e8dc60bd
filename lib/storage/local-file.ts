// Reading a file of this machine as a stored object: the disk driver's objects, and uploads recorded
// by their absolute path before lib/storage existed (and by tests and the benchmark, which point at
// files they wrote).
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { notFound } from './types';

export const READ_CHUNK = 256 * 1024;

export async function openLocalFile(
  file: string,
  label: string,
  where: string,
  range?: { start: number; end: number },
): Promise<Readable> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(label, where, error);
    throw error;
  }
  // The stream owns the handle from here and closes it at its end or when destroyed.
  return handle.createReadStream({ highWaterMark: READ_CHUNK, ...(range ?? {}) });
}
