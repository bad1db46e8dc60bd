// The signed timestamp: a receiver recomputes the HMAC of "<t>.<body>" (here by hand, as a receiver in any
// language would) and the documented verification refuses an old time, a changed body and a wrong secret.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature, webhookSignature } from './signature';

const SECRET = 'a webhook secret of some length';
const BODY = '{"event":"run.completed","n":1}';
const SENT = new Date('2026-12-03T17:00:00Z');
const T = SENT.getTime() / 1000;

describe('webhookSignature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const hex = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(webhookSignature(SECRET, BODY, SENT)).toBe(`t=${T},v1=${hex}`);
  });
});

describe('verifyWebhookSignature', () => {
  const header = webhookSignature(SECRET, BODY, SENT);

  it('accepts the delivery within the tolerance, from a string or the raw bytes', () => {
    const now = new Date(SENT.getTime() + 299_000);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now })).toEqual({ ok: true, timestamp: T });
    expect(verifyWebhookSignature(SECRET, header, Buffer.from(BODY), { now }).ok).toBe(true);
  });

  it('refuses the same delivery replayed after the tolerance (5 min by default)', () => {
    const later = new Date(SENT.getTime() + 301_000);
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: later })).toEqual({
      ok: false,
      reason: 'signed 301 s ago, outside the 300 s tolerance',
    });
    expect(verifyWebhookSignature(SECRET, header, BODY, { now: later, toleranceSeconds: 600 }).ok).toBe(true);
  });

  it('refuses a replay whose time was rewritten: the HMAC covers the time', () => {
    const now = new Date(SENT.getTime() + 3_600_000);
    const rewritten = header.replace(`t=${T}`, `t=${T + 3600}`);
    expect(verifyWebhookSignature(SECRET, rewritten, BODY, { now })).toEqual({
      ok: false,
      reason: 'no v1 signature matches the body',
    });
  });

  it('refuses a changed body, a wrong secret, the old sha256= form and a missing header', () => {
    const now = SENT;
    expect(verifyWebhookSignature(SECRET, header, `${BODY} `, { now }).ok).toBe(false);
    expect(verifyWebhookSignature('another secret of some length', header, BODY, { now }).ok).toBe(false);
    const legacy = `sha256=${createHmac('sha256', SECRET).update(BODY).digest('hex')}`;
    expect(verifyWebhookSignature(SECRET, legacy, BODY, { now })).toMatchObject({
      ok: false,
      reason: 'the header has no t=<unix seconds>',
    });
    expect(verifyWebhookSignature(SECRET, undefined, BODY, { now })).toMatchObject({ ok: false });
  });
});
