// A real S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket, in a folder of its own, for the
// tests that run the S3 driver. Its credentials are s3rver's fixed ones.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface LocalBucket {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

export async function startLocalBucket(bucket: string): Promise<LocalBucket> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
