import { describe, expect, it } from 'vitest';
import { orderShares, shareStatus } from './share-status';

const now = new Date('2026-12-01T12:00:00Z');
const at = (iso: string) => new Date(iso);

describe('shareStatus', () => {
  it('is active without expiry or revocation, and before the expiry', () => {
    expect(shareStatus({ createdAt: now, expiresAt: null, revokedAt: null }, now)).toBe('active');
    expect(shareStatus({ createdAt: now, expiresAt: at('2026-12-01T12:00:01Z'), revokedAt: null }, now)).toBe(
      'active',
    );
  });

  it('is expired from the expiry instant on (as the token stops opening)', () => {
    expect(shareStatus({ createdAt: now, expiresAt: now, revokedAt: null }, now)).toBe('expired');
  });

  it('is revoked when revoked, even once expired', () => {
    const revokedAt = at('2026-11-30T00:00:00Z');
    expect(shareStatus({ createdAt: now, expiresAt: null, revokedAt }, now)).toBe('revoked');
    expect(shareStatus({ createdAt: now, expiresAt: at('2026-11-01T00:00:00Z'), revokedAt }, now)).toBe(
      'revoked',
    );
  });
});

describe('orderShares', () => {
  it('lists the active links first, then the others, newest first in each', () => {
    const shares = [
      { id: 'old-active', createdAt: at('2026-11-01T00:00:00Z'), expiresAt: null, revokedAt: null },
      { id: 'new-revoked', createdAt: at('2026-11-30T00:00:00Z'), expiresAt: null, revokedAt: now },
      { id: 'new-active', createdAt: at('2026-11-20T00:00:00Z'), expiresAt: null, revokedAt: null },
      {
        id: 'expired',
        createdAt: at('2026-11-25T00:00:00Z'),
        expiresAt: at('2026-11-26T00:00:00Z'),
        revokedAt: null,
      },
    ];
    expect(orderShares(shares, now).map((s) => s.id)).toEqual([
      'new-active',
      'old-active',
      'new-revoked',
      'expired',
    ]);
  });
});
