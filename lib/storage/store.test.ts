// One suite, both drivers: the disk store in a temporary folder and the S3 store against a real
// S3-compatible server (s3rver) on 127.0.0.1. What one driver does, the other must do the same way.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalBucket, startLocalBucket } from '@/lib/test-support/local-bucket';
import { DiskStore } from './disk';
import { openS3Store } from './s3';
import { type ObjectStore, StorageError } from './types';

const MiB = 1024 * 1024;
const BUCKET = 'uploads-test';

/** A body of `size` pseudo-random bytes, produced 64 KiB at a time as an upload arrives. */
function body(seed: number, size: number): { chunks: () => AsyncGenerator<Uint8Array>; sha256: string } {
  const block = randomBytes(64 * 1024);
  block.writeUInt32LE(seed, 0);
  const hash = createHash('sha256');
  const slices: [number, number][] = [];
  for (let at = 0; at < size; at += block.length) slices.push([at, Math.min(block.length, size - at)]);
  for (const [at, length] of slices) {
    const piece = Buffer.from(block.subarray(0, length));
    piece.writeUInt32LE(at >>> 0, length >= 8 ? 4 : 0);
    hash.update(piece);
  }
  return {
    sha256: hash.digest('hex'),
    async *chunks() {
      for (const [at, length] of slices) {
        const piece = Buffer.from(block.subarray(0, length));
        piece.writeUInt32LE(at >>> 0, length >= 8 ? 4 : 0);
        yield piece;
      }
    },
  };
}

async function* failingAfter(bytes: number): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < bytes; sent += MiB) yield randomBytes(MiB);
  throw new Error('the client went away');
}

async function sha256Of(store: ObjectStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await store.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function keys(store: ObjectStore, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of store.list(prefix)) found.push(object.key);
  return found;
}

async function storageError(promise: Promise<unknown>): Promise<StorageError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
}

interface Driver {
  name: string;
  start(): Promise<ObjectStore>;
  stop(): Promise<void>;
  /** Whatever the driver keeps beside its objects (disk: hidden scratch files), to prove none is left. */
  leftovers(): string[];
}

function diskDriver(): Driver {
  let root = '';
  return {
    name: 'disk',
    async start() {
      root = mkdtempSync(path.join(os.tmpdir(), 'store-disk-'));
      return new DiskStore(root);
    },
    async stop() {
      rmSync(root, { recursive: true, force: true });
    },
    leftovers: () => readdirSync(root, { recursive: true }).map(String),
  };
}

function s3Driver(): Driver {
  let local: LocalBucket | null = null;
  return {
    name: 's3',
    async start() {
      local = await startLocalBucket(BUCKET);
      const { endpoint, bucket, accessKeyId, secretAccessKey } = local;
      return openS3Store({
        endpoint,
        bucket,
        accessKeyId,
        secretAccessKey,
        region: 'us-east-1',
        forcePathStyle: true,
      });
    },
    async stop() {
      await local?.close();
    },
    leftovers: () => [],
  };
}

describe.each([diskDriver(), s3Driver()])('the $name store', (driver) => {
  let store: ObjectStore;
  beforeAll(async () => {
    store = await driver.start();
  });
  afterAll(() => driver.stop());

  it('streams a multi-part body in and reads it back byte for byte', async () => {
    // 13 MiB and a bit: more than one 8 MiB part of a multipart upload, and not a multiple of anything.
    const data = body(1, 13 * MiB + 12_345);
    expect(await store.write('a1/0001-big.xml.gz', data.chunks())).toEqual({ bytes: 13 * MiB + 12_345 });
    expect(await store.stat('a1/0001-big.xml.gz')).toEqual({ bytes: 13 * MiB + 12_345 });
    expect(await store.exists('a1/0001-big.xml.gz')).toBe(true);
    expect(await sha256Of(store, 'a1/0001-big.xml.gz')).toBe(data.sha256);
    // A ranged read returns exactly those bytes (the sniffers read a file's head this way).
    const head = await buffer(await store.read('a1/0001-big.xml.gz', { start: 0, end: 7 }));
    const first = (await data.chunks().next()).value as Uint8Array;
    expect(head).toEqual(Buffer.from(first.subarray(0, 8)));
    expect(await keys(store, 'a1/')).toEqual(['a1/0001-big.xml.gz']);
  });

  it('refuses the byte over the cap while streaming and leaves no object', async () => {
    const data = body(2, 12 * MiB);
    const error = await storageError(store.write('a2/0001-huge.xml', data.chunks(), { maxBytes: 9 * MiB }));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/a2\/0001-huge\.xml is larger than the 9437184 bytes/);
    expect(await store.exists('a2/0001-huge.xml')).toBe(false);
    expect(await keys(store, 'a2/')).toEqual([]);
    // At the cap exactly is allowed.
    const exact = body(3, MiB);
    expect(await store.write('a2/0002-exact.xml', exact.chunks(), { maxBytes: MiB })).toEqual({ bytes: MiB });
    expect(driver.leftovers().filter((f) => f.includes('.part'))).toEqual([]);
  });

  it('leaves no object when the body fails or the write is aborted midway', async () => {
    await expect(store.write('a3/0001-cut.jsonl', failingAfter(10 * MiB))).rejects.toThrow(
      'the client went away',
    );
    const stop = new AbortController();
    const slow = (async function* () {
      yield randomBytes(MiB);
      stop.abort(new Error('cancelled by the test'));
      yield randomBytes(MiB);
    })();
    await expect(store.write('a3/0002-aborted.jsonl', slow, { signal: stop.signal })).rejects.toThrow(
      'cancelled by the test',
    );
    expect(await keys(store, 'a3/')).toEqual([]);
    expect(driver.leftovers().filter((f) => f.includes('.part'))).toEqual([]);
  });

  it('copies an object, and says which one is missing', async () => {
    const data = body(4, 3 * MiB);
    await store.write('a4/0001-crawl.csv', data.chunks());
    await store.copy('a4/0001-crawl.csv', 'a5/0000-crawl.csv');
    expect(await sha256Of(store, 'a5/0000-crawl.csv')).toBe(data.sha256);
    expect(await sha256Of(store, 'a4/0001-crawl.csv')).toBe(data.sha256);
    const error = await storageError(store.copy('a4/0009-gone.csv', 'a5/0009-gone.csv'));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('a4/0009-gone.csv');
    expect(await store.exists('a5/0009-gone.csv')).toBe(false);
  });

  it('deletes one object, and a missing one without complaint', async () => {
    await store.write('a6/0001-x.xml', body(5, 100).chunks());
    await store.write('a6/0002-y.xml', body(6, 100).chunks());
    await store.delete('a6/0001-x.xml');
    expect(await store.exists('a6/0001-x.xml')).toBe(false);
    expect(await keys(store, 'a6/')).toEqual(['a6/0002-y.xml']);
    await store.delete('a6/0001-x.xml');
  });

  it('deletes everything under a prefix and nothing beside it', async () => {
    for (const key of ['p1/0001-a.xml', 'p1/0002-b.xml', 'p1/gsc/i1/0001-t.csv', 'p10/0001-c.xml']) {
      await store.write(key, body(7, 1000).chunks());
    }
    expect(await store.deletePrefix('p1/')).toBe(3);
    expect(await keys(store, 'p1/')).toEqual([]);
    expect(await keys(store, 'p10/')).toEqual(['p10/0001-c.xml']);
    expect(await store.deletePrefix('p1/')).toBe(0);
  });

  it('answers a missing object with an error that names it', async () => {
    for (const attempt of [() => store.read('nowhere/0001-a.xml'), () => store.stat('nowhere/0001-a.xml')]) {
      const error = await storageError(attempt());
      expect(error.code).toBe('not_found');
      expect(error.message).toBe(`The stored upload nowhere/0001-a.xml does not exist in ${store.where}`);
    }
    expect(await store.exists('nowhere/0001-a.xml')).toBe(false);
  });

  it('refuses keys that could leave their prefix', async () => {
    for (const key of ['../etc/passwd', '/etc/passwd', 'a/../../b', 'a//b', '.hidden/x', 'a\\b', '']) {
      expect((await storageError(store.write(key, body(8, 10).chunks()))).code).toBe('invalid_key');
      expect((await storageError(store.read(key))).code).toBe('invalid_key');
    }
    expect((await storageError(store.deletePrefix('a'))).code).toBe('invalid_key');
  });
});
