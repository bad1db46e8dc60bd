// The signature a webhook receiver checks, `X-Sitemap-Audit-Signature: t=<unix seconds>,v1=<hex>`, where
// the hex is HMAC-SHA256 with the webhook's secret of `<t>.<raw body>`. Signing the time with the body lets
// a receiver refuse a captured delivery sent again later (docs/api.md says how to verify).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-sitemap-audit-signature';
/** How far a signature's time may be from the receiver's clock, by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** The header's value for `body` (as sent, byte for byte) sent at `now`. */
export function webhookSignature(secret: string, body: string, now: Date = new Date()): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

export type Verification = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * What a receiver does with a delivery: the header must carry a time and at least one v1 signature, the
 * time must be within `toleranceSeconds` of `now` (an older one is a replay, or a clock to fix), and one
 * v1 must equal the HMAC of `<t>.<raw body>`, compared in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Buffer,
  options: { now?: Date; toleranceSeconds?: number } = {},
): Verification {
  if (!header) return { ok: false, reason: 'no signature header' };
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't' && value && /^[0-9]{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null) return { ok: false, reason: 'the header has no t=<unix seconds>' };
  if (signatures.length === 0) return { ok: false, reason: 'the header has no v1=<hex> signature' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    return { ok: false, reason: `signed ${now - timestamp} s ago, outside the ${tolerance} s tolerance` };
  }
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  const matches = signatures.some((hex) => timingSafeEqual(Buffer.from(hex, 'hex'), expected));
  return matches ? { ok: true, timestamp } : { ok: false, reason: 'no v1 signature matches the body' };
}
