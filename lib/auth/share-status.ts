// A share link's state and the order the audit's list shows them in: pure, so the rule is tested without
// a database and the API and the panel cannot disagree about what "expired" means.
import type { ShareStatus } from './types';

export interface ShareTimes {
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** Revoked wins over expired (it was taken back on purpose); a link expires at its expiry instant, as
 * `sharedAudit` stops opening it. */
export function shareStatus(share: ShareTimes, now: Date): ShareStatus {
  if (share.revokedAt) return 'revoked';
  if (share.expiresAt && share.expiresAt <= now) return 'expired';
  return 'active';
}

/** Active links first (the ones that still open the report), then the rest; newest first within each. */
export function orderShares<T extends ShareTimes>(shares: readonly T[], now: Date): T[] {
  const rank = (s: T) => (shareStatus(s, now) === 'active' ? 0 : 1);
  return [...shares].sort((a, b) => rank(a) - rank(b) || b.createdAt.getTime() - a.createdAt.getTime());
}
