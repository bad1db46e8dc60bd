import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { credentialsSecret, openKey, parseProperty, parseServiceAccountKey, sealKey } from './credentials';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const json = {
  type: 'service_account',
  project_id: 'p',
  private_key_id: 'abc',
  private_key: pem,
  client_email: 'audit@p.iam.gserviceaccount.com',
  token_uri: 'https://attacker.example/token',
};

afterEach(() => vi.unstubAllEnvs());

describe('parseServiceAccountKey', () => {
  it('keeps what the client needs and drops the key’s token_uri', () => {
    const key = parseServiceAccountKey(JSON.stringify(json));
    expect(key).toEqual({ clientEmail: json.client_email, privateKey: pem, privateKeyId: 'abc' });
    expect(JSON.stringify(key)).not.toContain('attacker');
  });

  it.each([
    ['not json', /not JSON/],
    [[], /JSON object/],
    [{ ...json, type: 'authorized_user' }, /"type" must be "service_account"; found "authorized_user"/],
    [{ ...json, client_email: 'nobody' }, /"client_email" is missing or not an email/],
    [{ ...json, private_key: 'MIIE…' }, /"private_key" is missing or not a PEM/],
    [
      { ...json, private_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n' },
      /not an RSA private key that can be loaded/,
    ],
  ])('refuses %j naming what is wrong', (input, message) => {
    expect(() => parseServiceAccountKey(input)).toThrow(message);
  });
});

describe('parseProperty', () => {
  it('reads domain and URL-prefix properties', () => {
    expect(parseProperty('sc-domain:Example.com')).toBe('sc-domain:example.com');
    expect(parseProperty('https://www.example.com/')).toBe('https://www.example.com/');
  });
  it.each(['example.com', 'https://www.example.com', 'ftp://x.example/', 'https://u:p@x.example/'])(
    'refuses %s',
    (value) => expect(() => parseProperty(value)).toThrow(/property:/),
  );
});

describe('sealing', () => {
  const key = parseServiceAccountKey(json);
  const secret = randomBytes(32);

  it('opens what it sealed, and the bytes at rest hold no part of the key', () => {
    const sealed = sealKey(key, 'audit-1', secret);
    expect(openKey(sealed, 'audit-1', secret)).toEqual(key);
    const atRest = Buffer.concat([sealed.ciphertext, sealed.iv, sealed.authTag]).toString('latin1');
    expect(atRest).not.toContain('PRIVATE KEY');
    expect(atRest).not.toContain(pem.split('\n')[1]);
    expect(atRest).not.toContain(key.clientEmail);
  });

  it('cannot open with another secret or for another audit, and says so', () => {
    const sealed = sealKey(key, 'audit-1', secret);
    expect(() => openKey(sealed, 'audit-1', randomBytes(32))).toThrow(
      /cannot be decrypted.*upload the key again/,
    );
    expect(() => openKey(sealed, 'audit-2', secret)).toThrow(/cannot be decrypted/);
  });
});

describe('credentialsSecret', () => {
  it('takes GSC_CREDENTIALS_KEY when set and refuses one of the wrong length', () => {
    const configured = randomBytes(32);
    expect(credentialsSecret({ GSC_CREDENTIALS_KEY: configured.toString('base64') })).toEqual(configured);
    expect(() => credentialsSecret({ GSC_CREDENTIALS_KEY: randomBytes(16).toString('base64') })).toThrow(
      /32 bytes in base64.*decodes to 16/,
    );
  });

  it('on a shared database (DATABASE_URL) requires GSC_CREDENTIALS_KEY instead of making one in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gsc-secret-'));
    try {
      vi.stubEnv('DATA_DIR', dir);
      const shared = { DATABASE_URL: 'postgresql://app@db.internal/sitemap_audit' };
      expect(() => credentialsSecret(shared)).toThrow(
        /GSC_CREDENTIALS_KEY is not set.*same GSC_CREDENTIALS_KEY/,
      );
      expect(() => credentialsSecret({ ...shared, SITEMAP_AUDIT_DATABASE: 'shared' })).toThrow(
        /GSC_CREDENTIALS_KEY/,
      );
      expect(existsSync(path.join(dir, 'gsc-credentials.key'))).toBe(false);
      const configured = randomBytes(32);
      expect(credentialsSecret({ ...shared, GSC_CREDENTIALS_KEY: configured.toString('base64') })).toEqual(
        configured,
      );
      // A launcher's child on the embedded server also sees a DATABASE_URL (its role's): DATA_DIR as before.
      expect(credentialsSecret({ ...shared, SITEMAP_AUDIT_DATABASE: 'embedded' })).toHaveLength(32);
      expect(existsSync(path.join(dir, 'gsc-credentials.key'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('otherwise makes one key in DATA_DIR (mode 600) and keeps using it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gsc-secret-'));
    try {
      vi.stubEnv('DATA_DIR', dir);
      const first = credentialsSecret({});
      expect(first).toHaveLength(32);
      const file = path.join(dir, 'gsc-credentials.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(credentialsSecret({})).toEqual(first);
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
