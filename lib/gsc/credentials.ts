// Service-account keys for the URL Inspection API: what a key must hold, the property it is for, and how
// it is sealed at rest (AES-256-GCM under a secret from GSC_CREDENTIALS_KEY or DATA_DIR). No database here:
// lib/gsc/inspection/mutations.ts stores the sealed bytes.
import { createCipheriv, createDecipheriv, createPrivateKey, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '@/lib/db/config';
import { AppError } from '@/lib/errors';

/** What the client needs of a key. Google's token_uri is not kept: GOOGLE_OAUTH_TOKEN_URL decides. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | null;
}

export interface SealedKey {
  ciphertext: Buffer;
  iv: Buffer;
  authTag: Buffer;
}

const bad = (message: string) => new AppError('validation_failed', message);

/**
 * Checks a service-account JSON key as Google's console downloads it. The key's own `token_uri` is
 * accepted but ignored: the token request carries a signed assertion, and a key pasted by a user must not
 * point it at a host of the user's choosing (the token and API URLs are configuration, docs/security.md).
 */
export function parseServiceAccountKey(input: unknown): ServiceAccountKey {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw bad('key: not JSON; upload the service-account key file (JSON) as Google Cloud downloads it');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('key: expected the service-account key as a JSON object');
  }
  const key = value as Record<string, unknown>;
  if (key.type !== 'service_account') {
    throw bad(`key: "type" must be "service_account"; found ${JSON.stringify(key.type ?? null)}`);
  }
  const email = key.client_email;
  if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    throw bad('key: "client_email" is missing or not an email address');
  }
  const pem = key.private_key;
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN PRIVATE KEY-----')) {
    throw bad('key: "private_key" is missing or not a PEM private key (-----BEGIN PRIVATE KEY-----)');
  }
  try {
    const loaded = createPrivateKey(pem);
    if (loaded.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    throw bad('key: "private_key" is not an RSA private key that can be loaded (RS256 needs one)');
  }
  const id = key.private_key_id;
  return { clientEmail: email, privateKey: pem, privateKeyId: typeof id === 'string' && id ? id : null };
}

/** A Search Console property as the API names it: "sc-domain:example.com" or a URL prefix ending in "/". */
export function parseProperty(input: unknown): string {
  const text = typeof input === 'string' ? input.trim() : '';
  const domain = /^sc-domain:([a-z0-9-]+(\.[a-z0-9-]+)+)$/i.exec(text);
  if (domain?.[1]) return `sc-domain:${domain[1].toLowerCase()}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad(
      'property: expected "sc-domain:example.com" or a URL prefix such as "https://www.example.com/"',
    );
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw bad('property: a URL-prefix property is an http(s) URL without credentials');
  }
  if (!text.endsWith('/') || url.search || url.hash) {
    throw bad('property: a URL-prefix property ends with "/" and has no query ("https://www.example.com/")');
  }
  return url.href;
}

const SECRET_FILE = 'gsc-credentials.key';

/**
 * The 32-byte secret keys are sealed under: GSC_CREDENTIALS_KEY (base64) when set, else a random one made
 * once in DATA_DIR (mode 600, like database-roles.json) — losing that file makes stored keys unreadable,
 * so they would have to be uploaded again, which is the safe failure.
 */
export function credentialsSecret(env: Record<string, string | undefined> = process.env): Buffer {
  const configured = env.GSC_CREDENTIALS_KEY?.trim();
  if (configured) {
    const secret = Buffer.from(configured, 'base64');
    if (secret.length !== 32) {
      throw new AppError(
        'internal',
        `GSC_CREDENTIALS_KEY must be 32 bytes in base64 (openssl rand -base64 32); it decodes to ${secret.length}`,
      );
    }
    return secret;
  }
  const dir = dataDir();
  const file = path.join(dir, SECRET_FILE);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (secret.length !== 32) throw new AppError('internal', `${file} does not hold a 32-byte base64 key`);
  return secret;
}

// The audit's id is authenticated with the ciphertext: a sealed key copied to another audit's row does
// not open there.
export function sealKey(key: ServiceAccountKey, auditId: string, secret: Buffer): SealedKey {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  cipher.setAAD(Buffer.from(auditId));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(key), 'utf8'), cipher.final()]);
  return { ciphertext, iv, authTag: cipher.getAuthTag() };
}

export function openKey(sealed: SealedKey, auditId: string, secret: Buffer): ServiceAccountKey {
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, sealed.iv);
    decipher.setAAD(Buffer.from(auditId));
    decipher.setAuthTag(sealed.authTag);
    const text = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    return JSON.parse(text) as ServiceAccountKey;
  } catch {
    throw new AppError(
      'conflict',
      'The stored Search Console key cannot be decrypted (GSC_CREDENTIALS_KEY or DATA_DIR/gsc-credentials.key changed); upload the key again',
    );
  }
}
