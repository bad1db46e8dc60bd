// The signature a webhook receiver checks: HMAC-SHA256 of the raw body bytes with the webhook's secret.
import { createHmac } from 'node:crypto';

/** The `X-Sitemap-Audit-Signature` value for `body` (as sent, byte for byte). */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}
