// Object keys: `/`-separated segments of letters, digits, `.`, `_` and `-` only, so that no name a user
// sent can climb out of its prefix on disk (`..`, absolute paths, backslashes) or mean something odd to
// a bucket. User-given names go through `safeName` first.
import { StorageError } from './types';

// No segment starts with a dot: `.`, `..` and hidden names (the disk driver's `.tmp`) are never keys.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY = 1024;

export function assertKey(key: string): void {
  const segments = key.split('/');
  const bad = key.length === 0 || key.length > MAX_KEY || segments.some((s) => !SEGMENT.test(s));
  if (bad) throw new StorageError('invalid_key', `Not a storage key: ${JSON.stringify(key.slice(0, 200))}`);
}

/** A prefix is a key followed by `/`: it names a folder, never half a name. */
export function assertPrefix(prefix: string): void {
  if (!prefix.endsWith('/')) {
    throw new StorageError('invalid_key', `A storage prefix ends with "/": ${JSON.stringify(prefix)}`);
  }
  assertKey(prefix.slice(0, -1));
}

/** Keeps a user's file name recognisable but safe as the last segment of a key (and a file name). */
export function safeName(name: string): string {
  const base = (name.replace(/\\/g, '/').split('/').pop() ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '');
  return (base || 'upload').slice(0, 150);
}

/** The n-th upload of a request under `prefix`: `<prefix>0001-<safe name>`. */
export function uploadKey(prefix: string, index: number, fileName: string): string {
  assertPrefix(prefix);
  return `${prefix}${String(index).padStart(4, '0')}-${safeName(fileName)}`;
}
