// The one interface every upload goes through (lib/storage/store.ts picks the driver): a flat space of
// keys such as `<auditId>/0001-sitemap.xml.gz`, on local disk or in an S3-compatible bucket.
import type { Readable } from 'node:stream';

export interface WriteOptions {
  /** Bytes the object may hold: one more aborts the write while it streams, leaving no object. */
  maxBytes?: number;
  /** Aborts the write; its reason is what `write` rejects with. */
  signal?: AbortSignal;
}

export interface ObjectStore {
  readonly driver: 'disk' | 's3';
  /** Where objects live, for messages and logs (a folder, or `s3://bucket at endpoint`). */
  readonly where: string;
  /** Streams `body` to `key` (replacing an object of that key). A body that fails, a cap exceeded or an
   * abort leaves no object behind. Resolves once the object is complete, with its size. */
  write(key: string, body: AsyncIterable<Uint8Array>, options?: WriteOptions): Promise<{ bytes: number }>;
  /** The object's bytes, from `start` to `end` inclusive when given (both byte offsets). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(key: string): Promise<{ bytes: number }>;
  exists(key: string): Promise<boolean>;
  copy(from: string, to: string): Promise<void>;
  /** Removes one object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (which ends in `/`); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** The objects under `prefix` (which ends in `/`), in key order. */
  list(prefix: string): AsyncIterable<{ key: string; bytes: number }>;
  /** The object as a file of this machine, when the driver keeps it as one (disk). */
  localPath?(key: string): string;
}

export type StorageErrorCode = 'not_found' | 'too_large' | 'invalid_key' | 'config';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StorageError';
  }
}

export function notFound(key: string, where: string, cause?: unknown): StorageError {
  return new StorageError('not_found', `The stored upload ${key} does not exist in ${where}`, { cause });
}

export function tooLarge(key: string, maxBytes: number): StorageError {
  return new StorageError('too_large', `${key} is larger than the ${maxBytes} bytes it may hold`);
}

export function isStorageError(error: unknown, code?: StorageErrorCode): error is StorageError {
  return error instanceof StorageError && (code === undefined || error.code === code);
}
