// The S3 driver: objects in one bucket of any S3-compatible server (AWS, MinIO, Ceph, Garage, R2…).
// Writes stream as multipart uploads (lib-storage's Upload: at most QUEUE parts of PART_BYTES in memory
// at once, whatever the file's size); a write that fails is aborted and anything it left is deleted.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { capped } from './capped';
import type { S3Settings } from './config';
import { assertKey, assertPrefix } from './keys';
import { isStorageError, notFound, type ObjectStore, type WriteOptions } from './types';

/** 8 MiB parts, two in flight: 16 MiB of memory per upload, and 10,000 parts reach 80 GiB. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE = 2;
/** CopyObject copies at most 5 GiB in one request; a larger object is streamed through instead. */
const MAX_COPY_BYTES = 5 * 1024 * 1024 * 1024;
/** Deletes in flight while a prefix is removed: DeleteObjects is missing on some S3-compatible servers
 * (Google Cloud Storage's XML API among them), and an audit has few uploads. */
const DELETES_AT_ONCE = 8;

type Sdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/lib-storage'), 'Upload'>;

function isMissing(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  const name = (error as { name?: string } | null)?.name;
  return status === 404 || name === 'NoSuchKey' || name === 'NotFound';
}

/** The SDK is imported here, when a bucket is configured, and never by a module's static imports: the
 * worker and its threads are bundles (lib/core/bundle.mjs) that would otherwise load it at start (23 MB
 * and seconds of a thread's start) even on disk. */
export async function openS3Store(settings: S3Settings): Promise<S3Store> {
  const [s3, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return new S3Store(settings, { ...s3, Upload });
}

export class S3Store implements ObjectStore {
  readonly driver = 's3';
  readonly where: string;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(
    settings: S3Settings,
    private readonly sdk: Sdk,
  ) {
    this.bucket = settings.bucket;
    this.where = `s3://${settings.bucket} at ${settings.endpoint}`;
    this.client = new sdk.S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // The SDK's default (a CRC32 on every request, sent as a trailer of an aws-chunked body) is not
      // understood by several S3-compatible servers, which then store the chunk framing as the object's
      // bytes: checksums only where the API requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A connection that cannot be made fails fast; an open one is never timed out for being idle, since
      // a read is paused for as long as Postgres takes to store what was read (backpressure).
      requestHandler: { connectionTimeout: 10_000 },
    });
  }

  async write(key: string, body: AsyncIterable<Uint8Array>, options: WriteOptions = {}) {
    assertKey(key);
    const counted = capped(key, options.maxBytes);
    // The body flows through the counter into the upload; a failure on either side ends both, and the
    // body's own failure (a cap, the client gone) is the one the write reports.
    let bodyError: unknown = null;
    const flowing = pipeline(body, counted.transform, {
      ...(options.signal ? { signal: options.signal } : {}),
    }).catch((error: unknown) => {
      bodyError = error;
      counted.transform.destroy(error as Error);
      throw error;
    });
    flowing.catch(() => {});
    const upload = new this.sdk.Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counted.transform },
      partSize: PART_BYTES,
      queueSize: QUEUE,
      // Aborted below ourselves: lib-storage's own abort replaces the write's error with the abort's when
      // a server refuses AbortMultipartUpload.
      leavePartsOnError: true,
    });
    try {
      await Promise.all([upload.done(), flowing]);
      return { bytes: counted.bytes() };
    } catch (error) {
      counted.transform.destroy();
      await this.discard(key, upload.uploadId);
      throw options.signal?.aborted ? options.signal.reason : (bodyError ?? error);
    }
  }

  /** What a failed write may have left: its multipart upload's parts, or a whole object (a failure after
   * the object was completed, such as a cancelled request just after the last part). */
  private async discard(key: string, uploadId: string | undefined): Promise<void> {
    if (uploadId) {
      await this.client
        .send(new this.sdk.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
        .catch((error: Error) => {
          console.warn(
            `[storage] could not abort the multipart upload of ${key} (${error.message}); a lifecycle rule for incomplete multipart uploads removes its parts`,
          );
        });
    }
    await this.delete(key).catch((error: Error) => {
      console.warn(`[storage] could not delete ${key} after a failed write (${error.message})`);
    });
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertKey(key);
    try {
      const answer = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // The Node HTTP handler's body is the response stream itself (an IncomingMessage).
      if (!(answer.Body instanceof Readable)) throw new Error(`the bucket's answer for ${key} has no body`);
      return answer.Body;
    } catch (error) {
      if (isMissing(error)) throw notFound(key, this.where, error);
      throw error;
    }
  }

  async stat(key: string) {
    assertKey(key);
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { bytes: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) throw notFound(key, this.where, error);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return this.stat(key).then(
      () => true,
      (error) => {
        if (isStorageError(error, 'not_found')) return false;
        throw error;
      },
    );
  }

  async copy(from: string, to: string): Promise<void> {
    assertKey(to);
    const { bytes } = await this.stat(from);
    if (bytes > MAX_COPY_BYTES) {
      await this.write(to, await this.read(from));
      return;
    }
    try {
      await this.client.send(
        new this.sdk.CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: `${this.bucket}/${from}`,
        }),
      );
    } catch (error) {
      if (isMissing(error)) throw notFound(from, this.where, error);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    let count = 0;
    let batch: string[] = [];
    const flush = async () => {
      for (let i = 0; i < batch.length; i += DELETES_AT_ONCE) {
        await Promise.all(batch.slice(i, i + DELETES_AT_ONCE).map((key) => this.delete(key)));
      }
      count += batch.length;
      batch = [];
    };
    for await (const { key } of this.list(prefix)) {
      batch.push(key);
      if (batch.length >= 1000) await flush();
    }
    await flush();
    return count;
  }

  async *list(prefix: string): AsyncIterable<{ key: string; bytes: number }> {
    assertPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) yield { key: item.Key, bytes: item.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
