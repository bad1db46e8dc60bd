// Turns an IncomingMessage into the SafeResponse body: Content-Encoding decoded, size-capped while it
// streams (so a gzip bomb stops at maxBytes), and failed with 'timeout' when the server stalls.
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { abortedError, bodyError, deadlineError, idleError, tooLargeError } from './errors';
import type { NetError, SafeResponse } from './types';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Epoch ms at which the request's overall deadline passes. */
  deadlineAt: number;
  signal: AbortSignal | undefined;
  /** False for HEAD, 204, 304: there is nothing to decode. */
  hasBody: boolean;
}

export interface StreamedBody {
  body: SafeResponse['body'];
  compressedBytes(): number;
}

// Lenient like browsers: a compressed stream cut short by the server yields what was decoded so far.
const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  'x-gzip': () => zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  deflate: () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }),
  br: () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
};

/** Decoders in the order to apply them, or none when an encoding is unknown (bytes then stay raw). */
export function decodersFor(contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const factories = codings.map((c) => DECODERS[c]);
  if (factories.some((f) => f === undefined)) return [];
  // The last coding listed was applied last, so it is undone first.
  return factories.reverse().map((f) => (f as () => Transform)());
}

export function createBody(res: IncomingMessage, url: string, limits: BodyLimits): StreamedBody {
  let wireBytes = 0;
  let failure: NetError | undefined;
  let settled = false;
  // Deflate can only grow incompressible data by a few bytes per 16 KB block, so more wire bytes
  // than this can never decode to fewer than maxBytes.
  const wireCap = limits.maxBytes + Math.ceil(limits.maxBytes / 1000) + 1024;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      wireBytes += chunk.length;
      if (wireBytes > wireCap) done(fail(tooLargeError(url, limits.maxBytes)));
      else done(null, chunk);
    },
  });
  const decoders = limits.hasBody ? decodersFor(headerText(res.headers['content-encoding'])) : [];
  const tail: Readable = decoders.at(-1) ?? counter;
  // Errors reach the reader through `tail`'s iterator; the callback only keeps them from going unhandled.
  pipeline([res, counter, ...decoders], () => {});

  const deadline = setTimeout(
    () => fail(deadlineError(url, limits.timeoutMs)),
    Math.max(0, limits.deadlineAt - Date.now()),
  );
  const onAbort = () => fail(abortedError(url));
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  if (limits.signal?.aborted) onAbort();

  function fail(err: NetError): NetError {
    if (!settled && failure === undefined) {
      failure = err;
      res.destroy(err);
      tail.destroy(err);
    }
    return failure ?? err;
  }

  function settle(): void {
    settled = true;
    clearTimeout(deadline);
    limits.signal?.removeEventListener('abort', onAbort);
  }

  function destroy(): void {
    settle();
    res.destroy();
    tail.destroy();
  }

  async function* read(): AsyncGenerator<Uint8Array> {
    let delivered = 0;
    try {
      const declared = Number(res.headers['content-length']);
      if (decoders.length === 0 && declared > limits.maxBytes)
        throw fail(tooLargeError(url, limits.maxBytes));
      const chunks = tail[Symbol.asyncIterator]();
      while (true) {
        if (failure) throw failure;
        // Idle time counts only while we wait on the server, not while the consumer is busy.
        const idle = setTimeout(() => fail(idleError(url, limits.idleTimeoutMs)), limits.idleTimeoutMs);
        let step: IteratorResult<Buffer>;
        try {
          step = await chunks.next();
        } finally {
          clearTimeout(idle);
        }
        if (step.done) break;
        delivered += step.value.length;
        if (delivered > limits.maxBytes) throw fail(tooLargeError(url, limits.maxBytes));
        yield step.value;
      }
      if (failure) throw failure;
    } catch (err) {
      throw failure ?? bodyError(err, url);
    } finally {
      destroy();
    }
  }

  let reader: AsyncGenerator<Uint8Array> | undefined;
  const body = {
    [Symbol.asyncIterator]: () => {
      reader ??= read();
      return reader;
    },
    destroy,
  };
  return { body, compressedBytes: () => wireBytes };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
