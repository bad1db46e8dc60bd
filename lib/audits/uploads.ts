// Streams a multipart/form-data request to disk (never buffering a file in memory), size-capped.
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { AppError } from '@/lib/errors';

export interface UploadedFile {
  field: string;
  fileName: string;
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

/** Keeps the original name recognisable but safe as a path component. */
export function safeFileName(name: string): string {
  const base = path
    .basename(name.replace(/\\/g, '/'))
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '');
  return (base || 'upload').slice(0, 150);
}

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

export async function parseMultipart(
  request: Request,
  dir: string,
  limits: MultipartLimits,
): Promise<ParsedMultipart> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!request.body) throw new AppError('bad_request', 'The request has no body');
  await mkdir(dir, { recursive: true });
  const fields = new Map<string, string[]>();
  const files: UploadedFile[] = [];
  const writes: Promise<void>[] = [];
  let index = 0;
  let tooLarge: string | null = null;

  const parser = busboy({
    headers: { 'content-type': contentType },
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fieldSize: 1024 * 1024, fields: 1000 },
  });

  const done = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      const list = fields.get(name) ?? [];
      list.push(value);
      fields.set(name, list);
    });
    parser.on('file', (field, stream, info) => {
      index += 1;
      const fileName = info.filename || `${field}-${index}`;
      const storedPath = path.join(dir, `${String(index).padStart(4, '0')}-${safeFileName(fileName)}`);
      const record: UploadedFile = { field, fileName, storedPath, bytes: 0 };
      files.push(record);
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          record.bytes += chunk.length;
          cb(null, chunk);
        },
      });
      // Busboy truncates the file at the limit and keeps reading the request; fail once it is consumed.
      stream.on('limit', () => {
        tooLarge ??= fileName;
      });
      writes.push(pipeline(stream, counter, createWriteStream(storedPath)));
    });
    parser.on('filesLimit', () =>
      reject(new AppError('payload_too_large', `At most ${limits.maxFiles} files can be uploaded at once`)),
    );
    parser.on('error', (error: Error) =>
      reject(new AppError('bad_request', `Malformed upload: ${error.message}`)),
    );
    parser.on('close', resolve);
  });

  try {
    await pipeline(Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>), parser);
    await done;
    await Promise.all(writes);
    if (tooLarge) {
      throw new AppError(
        'payload_too_large',
        `${tooLarge} is larger than the upload limit of ${size(limits.maxFileBytes)}`,
      );
    }
  } catch (error) {
    await Promise.allSettled(writes);
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AppError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof AppError) throw cause;
    throw new AppError('bad_request', `The upload could not be read: ${(error as Error).message}`);
  }
  return { fields, files };
}
