// The environment decides the store: none of the S3 variables is disk, all four is a bucket, anything in
// between stops the start with the names of what is missing.
import { describe, expect, it } from 'vitest';
import { describeStorage, storageConfig } from './config';

const FULL = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_BUCKET: 'uploads',
  S3_ACCESS_KEY_ID: 'id',
  S3_SECRET_ACCESS_KEY: 'secret',
};

describe('storageConfig', () => {
  it('is the disk under DATA_DIR without S3 variables', () => {
    expect(storageConfig({ DATA_DIR: '/srv/audit' })).toEqual({ driver: 'disk', root: expect.any(String) });
  });

  it('is the bucket with all four, region us-east-1 and path-style by default', () => {
    expect(storageConfig(FULL)).toEqual({
      driver: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'uploads',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(storageConfig({ ...FULL, S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: 'false' })).toMatchObject({
      region: 'eu-west-3',
      forcePathStyle: false,
    });
  });

  it('names each missing variable of a partial configuration', () => {
    const { S3_SECRET_ACCESS_KEY: _, ...noSecret } = FULL;
    expect(() => storageConfig(noSecret)).toThrow(/S3_SECRET_ACCESS_KEY is not set/);
    expect(() => storageConfig({ S3_BUCKET: 'uploads' })).toThrow(
      /S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY are not set \(S3_BUCKET is\)/,
    );
    // Blank counts as unset: an empty variable in a compose file is not a configuration.
    expect(() => storageConfig({ ...FULL, S3_BUCKET: '  ' })).toThrow(/S3_BUCKET is not set/);
    expect(() => storageConfig({ S3_REGION: 'eu-west-3' })).toThrow(
      /S3_REGION is set but object storage is not configured/,
    );
  });

  it('refuses an endpoint that is not an http(s) URL, or carries credentials, and a bad flag', () => {
    expect(() => storageConfig({ ...FULL, S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT must be an http/,
    );
    expect(() => storageConfig({ ...FULL, S3_ENDPOINT: 'http://a:b@minio:9000' })).toThrow(/credentials/);
    expect(() => storageConfig({ ...FULL, S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      /S3_FORCE_PATH_STYLE must be true or false, got "maybe"/,
    );
  });

  it('never shows the secret', () => {
    expect(describeStorage(storageConfig(FULL))).not.toContain('secret');
  });
});
