// First stage of sitemap ingestion: raw bytes in, uncompressed bytes out.
// Gzip is recognised by its magic bytes only, because file names and Content-Type headers lie
// in both directions (`.gz` files holding plain XML, gzip served as text/plain).

import { createGunzip } from 'node:zlib';
import { type ParseStats, SitemapParseError } from './types';

const GZIP_OUTPUT_CHUNK = 64 * 1024;

function tooLarge(limit: number, gzip: boolean): SitemapParseError {
  const what = gzip ? 'once decompressed, the file is' : 'the file is';
  const mebibytes = Math.round((limit / (1024 * 1024)) * 10) / 10;
  return new SitemapParseError(
    'too_large',
    `${what} larger than the limit of ${limit.toLocaleString('en-US')} bytes (${mebibytes} MiB)`,
  );
}

function gzipError(err: unknown): SitemapParseError {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'Z_BUF_ERROR') {
    return new SitemapParseError('gzip_error', 'the gzip data is truncated (unexpected end of file)');
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new SitemapParseError('gzip_error', `the gzip data is corrupt (${detail})`);
}

function concatBytes(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Yields the uncompressed bytes of `source`, gunzipping it when it starts with 1f 8b.
 * Counts bytes on both sides into `stats` and throws 'too_large' as soon as the uncompressed
 * size passes `maxBytes`, so a decompression bomb never gets further than one output chunk.
 */
export async function* decompressSource(
  source: AsyncIterable<Uint8Array>,
  stats: ParseStats,
  maxBytes: number,
): AsyncGenerator<Uint8Array, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    // Sources may deliver tiny chunks; collect at least the two magic bytes before deciding.
    const head: Uint8Array[] = [];
    let headLength = 0;
    while (headLength < 2) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.length;
    }
    const first = concatBytes(head, headLength);
    stats.compressedBytes += first.length;
    if (first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b) {
      stats.gzip = true;
      yield* gunzip(first, iterator, stats, maxBytes);
      finished = true;
      return;
    }

    stats.uncompressedBytes += first.length;
    if (stats.uncompressedBytes > maxBytes) throw tooLarge(maxBytes, false);
    if (first.length > 0) yield first;
    while (!finished) {
      const next = await iterator.next();
      if (next.done) {
        finished = true;
        break;
      }
      stats.compressedBytes += next.value.length;
      stats.uncompressedBytes += next.value.length;
      if (stats.uncompressedBytes > maxBytes) throw tooLarge(maxBytes, false);
      yield next.value;
    }
  } finally {
    // Stopping early (error, too large, consumer gave up) must release the underlying source.
    // Not awaited: an async-generator source queues return() behind a pending next().
    if (!finished) iterator.return?.()?.catch(() => undefined);
  }
}

/** Compressed input is fed in slices so one slice can never inflate into an unbounded burst. */
const INPUT_SLICE = 16 * 1024;
/** Decompressed bytes allowed to wait for the parser before input feeding pauses. */
const OUTPUT_HIGH_WATER = 256 * 1024;

/**
 * Gunzips with a 'data' listener and explicit backpressure instead of the stream's async iterator:
 * the iterator drops already-inflated output once zlib reports an error, and the entries decoded
 * before a truncated or corrupt tail must still reach the caller.
 */
async function* gunzip(
  first: Uint8Array,
  iterator: AsyncIterator<Uint8Array>,
  stats: ParseStats,
  maxBytes: number,
): AsyncGenerator<Uint8Array, void, undefined> {
  const inflater = createGunzip({ chunkSize: GZIP_OUTPUT_CHUNK });
  const queue: Buffer[] = [];
  let queued = 0;
  let produced = 0;
  let failure: unknown = null;
  let ended = false;
  let capped = false;
  let stopped = false;
  // One waiter each: the parser waiting for output, the feeder waiting for a write or for room.
  let wakeConsumer: (() => void) | null = null;
  let wakeWritten: (() => void) | null = null;
  let wakeRoom: (() => void) | null = null;
  const signalConsumer = () => {
    const wake = wakeConsumer;
    wakeConsumer = null;
    wake?.();
  };
  const signalWritten = () => {
    const wake = wakeWritten;
    wakeWritten = null;
    wake?.();
  };
  const signalRoom = () => {
    const wake = wakeRoom;
    wakeRoom = null;
    wake?.();
  };

  inflater.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    queued += chunk.length;
    produced += chunk.length;
    // Stop inflating a bomb right away; the consumer still reports it when it reaches this chunk.
    if (produced > maxBytes && !capped) {
      capped = true;
      inflater.destroy();
    }
    signalConsumer();
  });
  inflater.on('error', (err) => {
    failure ??= gzipError(err);
    signalConsumer();
  });
  inflater.on('end', () => {
    ended = true;
    signalConsumer();
  });
  inflater.on('close', () => {
    signalWritten();
    signalRoom();
    signalConsumer();
  });

  const write = (slice: Uint8Array) =>
    new Promise<void>((resolve) => {
      wakeWritten = resolve;
      inflater.write(slice, signalWritten);
    });

  const feed = async () => {
    try {
      let chunk: Uint8Array = first;
      for (;;) {
        for (let offset = 0; offset < chunk.length; offset += INPUT_SLICE) {
          if (stopped || inflater.destroyed) return;
          await write(chunk.subarray(offset, offset + INPUT_SLICE));
          while (queued > OUTPUT_HIGH_WATER && !stopped && !inflater.destroyed) {
            await new Promise<void>((resolve) => {
              wakeRoom = resolve;
            });
          }
        }
        if (stopped || inflater.destroyed) return;
        const next = await iterator.next();
        if (next.done) break;
        stats.compressedBytes += next.value.length;
        chunk = next.value;
      }
      if (!stopped && !inflater.destroyed) inflater.end();
    } catch (err) {
      // Errors of the source itself (network, disk) surface unchanged, not as gzip errors.
      failure ??= err;
      signalConsumer();
    }
  };

  void feed();
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        queued -= chunk.length;
        if (queued <= OUTPUT_HIGH_WATER) signalRoom();
        stats.uncompressedBytes += chunk.length;
        if (stats.uncompressedBytes > maxBytes) throw tooLarge(maxBytes, true);
        yield chunk;
        continue;
      }
      if (failure !== null) throw failure;
      if (ended) return;
      if (capped) throw tooLarge(maxBytes, true);
      if (inflater.destroyed) throw gzipError(new Error('the decompressor stopped unexpectedly'));
      await new Promise<void>((resolve) => {
        wakeConsumer = resolve;
      });
    }
  } finally {
    stopped = true;
    inflater.destroy();
    signalWritten();
    signalRoom();
  }
}
