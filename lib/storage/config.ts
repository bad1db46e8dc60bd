// Which store the environment asks for: a bucket when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and
// S3_SECRET_ACCESS_KEY are all set, local disk under DATA_DIR when none is. Some but not all of them is a
// mistake that would otherwise surface as lost uploads later, so it stops the start instead.
import { uploadsDir } from '@/lib/db/config';
import { StorageError } from './types';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  forcePathStyle: boolean;
}

export type StorageConfig = { driver: 'disk'; root: string } | ({ driver: 's3' } & S3Settings);

const REQUIRED = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const OPTIONAL = ['S3_REGION', 'S3_FORCE_PATH_STYLE'] as const;

function value(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

function bool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new StorageError('config', `${name} must be true or false, got "${raw}"`);
}

export function storageConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): StorageConfig {
  const given = REQUIRED.filter((name) => value(env, name) !== undefined);
  if (given.length === 0) {
    const stray = OPTIONAL.find((name) => value(env, name) !== undefined);
    if (stray) {
      throw new StorageError(
        'config',
        `${stray} is set but object storage is not configured: set ${REQUIRED.join(', ')} too, or unset ${stray}`,
      );
    }
    return { driver: 'disk', root: uploadsDir() };
  }
  const missing = REQUIRED.filter((name) => value(env, name) === undefined);
  if (missing.length > 0) {
    throw new StorageError(
      'config',
      `Object storage is half configured: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set (${given.join(', ')} ${given.length === 1 ? 'is' : 'are'}). Set all of ${REQUIRED.join(', ')} to store uploads in a bucket, or none to keep them under DATA_DIR`,
    );
  }
  const endpoint = value(env, 'S3_ENDPOINT') as string;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new StorageError('config', `S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new StorageError('config', `S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  }
  if (url.username || url.password) {
    throw new StorageError(
      'config',
      'S3_ENDPOINT must not carry credentials: use S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
    );
  }
  return {
    driver: 's3',
    endpoint,
    bucket: value(env, 'S3_BUCKET') as string,
    accessKeyId: value(env, 'S3_ACCESS_KEY_ID') as string,
    secretAccessKey: value(env, 'S3_SECRET_ACCESS_KEY') as string,
    region: value(env, 'S3_REGION') ?? 'us-east-1',
    // Custom endpoints (MinIO, Ceph, Garage, R2…) mostly serve buckets by path, not by host name.
    forcePathStyle: bool('S3_FORCE_PATH_STYLE', value(env, 'S3_FORCE_PATH_STYLE'), true),
  };
}

/** What the logs may say about the store: never the secret. */
export function describeStorage(config: StorageConfig): string {
  return config.driver === 'disk'
    ? `local disk (${config.root})`
    : `S3 bucket "${config.bucket}" at ${config.endpoint} (region ${config.region}${config.forcePathStyle ? ', path-style' : ''})`;
}
