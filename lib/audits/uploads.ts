// Streams a multipart/form-data request's files to the upload store (lib/storage: DATA_DIR or a bucket),
// never buffering a file in memory, each capped while it streams.
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { AppError } from '@/lib/core/errors';
import { textProblem } from '@/lib/core/text';
import { uploadKey } from '@/lib/storage/keys';
import { storage } from '@/lib/storage/store';
import { isStorageError } from '@/lib/storage/types';

export interface UploadedFile {
  field: string;
  fileName: string;
  /** Its key in the upload store. */
  storedPath: string;
  bytes: number;
}

export interface ParsedMultipart {
  fields: Map<string, string[]>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
}

/** Where an audit's uploads are kept in the store: deleting the audit removes everything under it (its
 * Search Console imports' uploads and a crawl export added later included). */
export function auditUploadPrefix(auditId: string): string {
  return `${auditId}/`;
}

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/** Longest upload name kept (a file system's own limit is 255 bytes; the name is stored as sent). */
const MAX_FILE_NAME = 1000;
const MAX_FIELD_BYTES = 1024 * 1024;

/** What busboy's own errors mean to the client who sent the body. */
function malformed(error: Error): AppError {
  const message = error.message;
  if (/boundary not found/i.test(message)) {
    return new AppError(
      'bad_request',
      'The multipart body has no boundary: send Content-Type: multipart/form-data; boundary=…',
    );
  }
  if (/unsupported content type|malformed content type/i.test(message)) {
    return new AppError(
      'unsupported_media_type',
      'Send multipart/form-data (with files) or application/json',
    );
  }
  if (/unexpected end of (form|file)/i.test(message)) {
    return new AppError(
      'bad_request',
      'The upload was cut short: the multipart body ends before its last boundary',
    );
  }
  return new AppError('bad_request', `Malformed upload: ${message}`);
}

/**
 * Streams the request's parts to objects under `prefix` (a prefix of this request alone). On any failure
 * (a malformed or truncated body, a client that goes away, a limit, a field Postgres could not store)
 * nothing of the request is left in the store.
 */
export async function parseMultipart(
  request: Request,
  prefix: string,
  limits: MultipartLimits,
): Promise<ParsedMultipart> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!request.body) throw new AppError('bad_request', 'The request has no body');
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // File names are UTF-8 (browsers send them so); busboy's default reads them as latin1.
      defParamCharset: 'utf8',
      limits: {
        // One byte more than a file may have: the store's cap (below) is what refuses it, while it streams;
        // busboy only stops reading the part after that byte.
        fileSize: limits.maxFileBytes + 1,
        files: limits.maxFiles,
        fieldSize: MAX_FIELD_BYTES,
        fields: 1000,
        parts: limits.maxFiles + 1000,
      },
    });
  } catch (error) {
    // Thrown before anything is read (no boundary, not multipart): nothing was written yet.
    throw malformed(error as Error);
  }
  const store = await storage();
  const fields = new Map<string, string[]>();
  const files: UploadedFile[] = [];
  const writes: Promise<unknown>[] = [];
  let index = 0;
  let tooLarge: string | null = null;
  // The first reason to refuse the request; the body is still read to its end (or its error) after it.
  let failure: AppError | null = null;
  let storeError: { fileName: string; error: Error } | null = null;
  const fail = (error: AppError) => {
    failure ??= error;
  };

  parser.on('field', (name, value, info) => {
    const problem = textProblem(name) ?? textProblem(value);
    if (problem) return fail(new AppError('validation_failed', `field ${JSON.stringify(name)} ${problem}`));
    if (info.valueTruncated) {
      return fail(
        new AppError('payload_too_large', `field "${name}" is longer than ${size(MAX_FIELD_BYTES)}`),
      );
    }
    const list = fields.get(name) ?? [];
    list.push(value);
    fields.set(name, list);
  });
  parser.on('file', (field, stream, info) => {
    index += 1;
    const fileName = info.filename || `${field}-${index}`;
    const problem =
      textProblem(field) ??
      textProblem(fileName) ??
      (fileName.length > MAX_FILE_NAME ? `is longer than ${MAX_FILE_NAME} characters` : null);
    if (problem) fail(new AppError('validation_failed', `the name of the "${field}" file ${problem}`));
    if (failure) {
      // Drained, not stored. Busboy destroys it with an error if the body is then cut short: with no
      // listener that error would be thrown and end the process.
      stream.on('error', () => {});
      stream.resume();
      return;
    }
    const record: UploadedFile = {
      field,
      fileName,
      storedPath: uploadKey(prefix, index, fileName),
      bytes: 0,
    };
    files.push(record);
    // Piped, not handed over: a write that fails must not destroy busboy's stream, which is drained instead
    // (a destroyed one would hold the rest of the request back for ever). Its own failure (the body cut
    // short) ends the write.
    const body = new PassThrough({ highWaterMark: 256 * 1024 });
    stream.pipe(body);
    stream.on('error', (error) => body.destroy(error));
    // The store may start reading the body only after an await (the disk store makes its folder first):
    // an error before then is kept on the stream for it to find, not thrown as uncaught.
    body.on('error', () => {});
    // Busboy stops reading the part after the byte over the cap; the store's cap has failed the write then.
    stream.on('limit', () => {
      tooLarge ??= fileName;
    });
    const written = store
      .write(record.storedPath, body, { maxBytes: limits.maxFileBytes })
      .then(({ bytes }) => {
        record.bytes = bytes;
      })
      .catch((error: Error) => {
        stream.unpipe(body);
        stream.resume();
        if (isStorageError(error, 'too_large')) tooLarge ??= fileName;
        // Cut short by the body's own failure (recorded when the body pipeline ends), or the store failed.
        else storeError ??= { fileName, error };
      });
    writes.push(written);
  });
  // The pipeline below receives the parser's errors; this listener only makes sure an error emitted after
  // it settled cannot be thrown as unhandled.
  parser.on('error', () => {});
  const limitReached = (what: string) => () =>
    fail(new AppError('payload_too_large', `The upload has too many ${what}`));
  parser.on('filesLimit', () =>
    fail(new AppError('payload_too_large', `At most ${limits.maxFiles} files can be uploaded at once`)),
  );
  parser.on('fieldsLimit', limitReached('fields'));
  parser.on('partsLimit', limitReached('parts'));

  try {
    await pipeline(Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>), parser);
  } catch (error) {
    fail(error instanceof AppError ? error : readFailure(error as Error));
  }
  await Promise.all(writes);
  if (storeError && !failure) {
    const { fileName, error } = storeError as { fileName: string; error: Error };
    console.error('[uploads] could not store a part', error);
    fail(new AppError('internal', `${fileName} could not be stored`));
  }
  if (tooLarge) {
    fail(
      new AppError(
        'payload_too_large',
        `${tooLarge} is larger than the upload limit of ${size(limits.maxFileBytes)}`,
      ),
    );
  }
  if (failure) {
    await store.deletePrefix(prefix);
    throw failure;
  }
  return { fields, files };
}

/** A failure while reading: busboy's (malformed or truncated body) or the request stream's (the client
 * went away). */
function readFailure(error: Error): AppError {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AppError) return cause;
  if (error.name === 'AbortError' || /aborted|terminated|socket/i.test(error.message)) {
    return new AppError('bad_request', 'The upload was not received whole: the client stopped sending it');
  }
  return malformed(error);
}
