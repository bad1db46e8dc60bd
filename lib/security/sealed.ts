// Secrets kept at rest (Search Console keys, webhook signing secrets): AES-256-GCM under one key made
// for this instance, with a caller-chosen context authenticated alongside, so a sealed value copied to
// another row does not open there. No database here: each feature stores the three parts itself.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { dataDir, usesSharedDatabase } from '@/lib/db/config';

export interface Sealed {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
}

/** The file that holds the generated key. Its name predates webhooks, which share it. */
const KEY_FILE = 'gsc-credentials.key';

/**
 * The 32-byte key everything at rest is sealed under: GSC_CREDENTIALS_KEY (base64) when set, else, on the
 * embedded database, a random one made once in DATA_DIR (mode 600, like database-roles.json) — losing that
 * file makes what was sealed unreadable, so it would have to be entered again, which is the safe failure.
 * On a shared database (DATABASE_URL) the variable is required: a key made in one machine's DATA_DIR would
 * seal what no other machine can open.
 */
export function atRestKey(env: Record<string, string | undefined> = process.env): Buffer {
  const configured = env.GSC_CREDENTIALS_KEY?.trim();
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) {
      throw new AppError(
        'internal',
        `GSC_CREDENTIALS_KEY must be 32 bytes in base64 (openssl rand -base64 32); it decodes to ${key.length}`,
      );
    }
    return key;
  }
  if (usesSharedDatabase(env)) {
    throw new AppError(
      'unavailable',
      'GSC_CREDENTIALS_KEY is not set: with DATABASE_URL (a database several machines may share) every web ' +
        'server and worker needs the same GSC_CREDENTIALS_KEY (openssl rand -base64 32) to seal and open ' +
        'Search Console keys and webhook secrets (docs/operations.md)',
    );
  }
  const dir = dataDir();
  const file = path.join(dir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new AppError('internal', `${file} does not hold a 32-byte base64 key`);
  return key;
}

/** Seals `plaintext`; `context` (e.g. the owning row's id) must be given again to open it. */
export function seal(plaintext: string, context: string, key: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { ciphertext, iv, authTag: cipher.getAuthTag() };
}

/** The plaintext, or null when it does not open: another key, another context, or altered bytes. */
export function open(sealed: Sealed, context: string, key: Buffer): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
