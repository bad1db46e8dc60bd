// Sealing at rest: what was sealed opens with the same key and context only, and the stored bytes hold no
// part of the plaintext.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal } from './sealed';

describe('seal and open', () => {
  const key = randomBytes(32);
  const secret = 'a webhook secret of some length';

  it('opens what it sealed; the bytes at rest do not hold the plaintext', () => {
    const sealed = seal(secret, 'site_webhooks:7', key);
    expect(open(sealed, 'site_webhooks:7', key)).toBe(secret);
    for (const part of [sealed.ciphertext, sealed.iv, sealed.authTag]) {
      expect(part.includes(Buffer.from(secret))).toBe(false);
    }
    // A fresh IV each time: sealing twice stores different bytes.
    expect(seal(secret, 'site_webhooks:7', key).ciphertext.equals(sealed.ciphertext)).toBe(false);
  });

  it('does not open with another key, in another row, or altered', () => {
    const sealed = seal(secret, 'site_webhooks:7', key);
    expect(open(sealed, 'site_webhooks:7', randomBytes(32))).toBeNull();
    expect(open(sealed, 'site_webhooks:13', key)).toBeNull();
    const altered = Buffer.from(sealed.ciphertext);
    altered[0] = (altered[0] ?? 0) ^ 1;
    expect(open({ ...sealed, ciphertext: altered }, 'site_webhooks:7', key)).toBeNull();
  });
});
