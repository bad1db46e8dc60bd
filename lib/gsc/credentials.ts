// Service-account keys for the URL Inspection API: what a key must hold, the property it is for, and how
// it is sealed at rest (lib/security/sealed.ts: AES-256-GCM under GSC_CREDENTIALS_KEY or DATA_DIR). No
// database here: lib/gsc/inspection/mutations.ts stores the sealed bytes.
import { createPrivateKey } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { atRestKey, open, type Sealed, seal } from '@/lib/security/sealed';

/** What the client needs of a key. Google's token_uri is not kept: GOOGLE_OAUTH_TOKEN_URL decides. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | null;
}

export type SealedKey = Sealed;

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

/** The key Search Console keys are sealed under (lib/security/sealed.ts: GSC_CREDENTIALS_KEY or a file in
 * DATA_DIR). */
export function credentialsSecret(env: Record<string, string | undefined> = process.env): Buffer {
  return atRestKey(env);
}

// The audit's id is authenticated with the ciphertext: a sealed key copied to another audit's row does
// not open there.
export function sealKey(key: ServiceAccountKey, auditId: string, secret: Buffer): SealedKey {
  return seal(JSON.stringify(key), auditId, secret);
}

export function openKey(sealed: SealedKey, auditId: string, secret: Buffer): ServiceAccountKey {
  const text = open(sealed, auditId, secret);
  if (text === null) {
    throw new AppError(
      'conflict',
      'The stored Search Console key cannot be decrypted (GSC_CREDENTIALS_KEY or DATA_DIR/gsc-credentials.key changed); upload the key again',
    );
  }
  return JSON.parse(text) as ServiceAccountKey;
}
