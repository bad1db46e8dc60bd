// Turns the uploaded bytes of a crawl export into plain UTF-8 chunks: gunzip by magic bytes (never by
// file name), an uncompressed size cap against decompression bombs, BOM removal and UTF-16 transcoding.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { countedChunks, type InflateBudget, InflateBudgetError } from '@/lib/inflate/budget';
import { CrawlImportError } from './types';

/** Big uploads can arrive as one huge chunk; slicing keeps each parser step (and each batch) small. */
const MAX_CHUNK_BYTES = 1 << 20;

export interface Peeked {
  /** The first chunks, concatenated. */
  head: Buffer;
  /** Everything, head included, as if nothing had been read. */
  stream: AsyncIterable<Buffer>;
}

/** Reads chunks until `isEnough(head)` or the end, without losing them. */
export async function peek(
  source: AsyncIterable<Uint8Array>,
  isEnough: (head: Buffer) => boolean,
): Promise<Peeked> {
  const iterator = source[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let size = 0;
  let checkAt = 0;
  let ended = false;
  for (;;) {
    // Checking at doubling sizes keeps concat + isEnough linear even when a client sends tiny chunks.
    if (size >= checkAt && size > 0) {
      if (isEnough(Buffer.concat(parts, size))) break;
      checkAt = Math.max(size * 2, size + 4096);
    }
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    parts.push(asBuffer(next.value));
    size += next.value.length;
  }
  const head = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
  return { head, stream: replay(head, iterator, ended) };
}

async function* replay(head: Buffer, iterator: AsyncIterator<Uint8Array>, ended: boolean) {
  let isDone = ended;
  try {
    if (head.length > 0) yield head;
    while (!isDone) {
      const next = await iterator.next();
      if (next.done) {
        isDone = true;
        return;
      }
      yield asBuffer(next.value);
    }
  } finally {
    // The consumer stopped early: let the source release its file handle or stream.
    if (!isDone) await iterator.return?.();
  }
}

/** Decompressed BOM-free UTF-8 chunks of at most 1 MiB, each counted into `budget` as it inflates. */
export async function* openCrawlSource(
  source: AsyncIterable<Uint8Array>,
  budget: InflateBudget,
  fileName = 'The crawl export',
): AsyncGenerator<Buffer> {
  const raw = await peek(source, (head) => head.length >= 2);
  const isGzip = raw.head[0] === 0x1f && raw.head[1] === 0x8b;
  const plain = capSize(isGzip ? gunzip(raw.stream) : raw.stream, budget, fileName);
  for await (const chunk of toUtf8(plain)) {
    for (let start = 0; start < chunk.length; start += MAX_CHUNK_BYTES) {
      yield chunk.subarray(start, start + MAX_CHUNK_BYTES);
    }
  }
}

async function* capSize(
  chunks: AsyncIterable<Buffer>,
  budget: InflateBudget,
  fileName: string,
): AsyncGenerator<Buffer> {
  try {
    yield* countedChunks(chunks, budget, fileName);
  } catch (error) {
    if (error instanceof InflateBudgetError) {
      throw new CrawlImportError('too_large', `${error.message}; split it or raise the limit.`);
    }
    throw error;
  }
}

async function* gunzip(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const input = Readable.from(chunks, { objectMode: false });
  const inflater = createGunzip();
  // pipe() does not forward errors; a failing upload must still end the loop below.
  input.on('error', (error) => inflater.destroy(error));
  input.pipe(inflater);
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } catch (error) {
    if (isZlibError(error)) {
      throw new CrawlImportError(
        'corrupt_gzip',
        `The file starts like gzip but cannot be decompressed (${error.message}); it may be truncated.`,
      );
    }
    throw error;
  } finally {
    input.destroy();
    inflater.destroy();
  }
}

function isZlibError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('Z_');
}

type SourceEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

async function* toUtf8(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const { head, stream } = await peek(chunks, (bytes) => bytes.length >= 4);
  const encoding = sniffEncoding(head);
  if (encoding === 'utf-8') {
    let isFirst = true;
    for await (const chunk of stream) {
      // replay() yields the whole peeked head first, so a BOM is never split across chunks.
      if (isFirst && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        yield chunk.subarray(3);
      } else {
        yield chunk;
      }
      isFirst = false;
    }
    return;
  }
  // Ahrefs exports UTF-16LE. The decoder drops the BOM and keeps surrogate pairs split across chunks.
  const decoder = new TextDecoder(encoding);
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    if (text.length > 0) yield Buffer.from(text, 'utf8');
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield Buffer.from(tail, 'utf8');
}

function sniffEncoding(head: Buffer): SourceEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // No BOM: ASCII text in UTF-16 shows up as every other byte being zero.
  if (head.length >= 4 && head[0] !== 0 && head[1] === 0 && head[3] === 0) return 'utf-16le';
  if (head.length >= 4 && head[0] === 0 && head[1] !== 0 && head[2] === 0) return 'utf-16be';
  return 'utf-8';
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
