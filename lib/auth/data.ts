// Reads of accounts, sessions, API tokens and share links. Secrets are looked up by their SHA-256 only.
import 'server-only';
import { db } from '@/lib/db/client';
import type { Role } from './roles';

export interface AccountUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

const userFields = { id: true, email: true, name: true, role: true } as const;

export async function countUsers(): Promise<number> {
  return db().user.count();
}

/** The user and password hash for a sign-in (disabled accounts are treated as unknown). */
export async function userForLogin(email: string) {
  return db().user.findFirst({
    where: { email, disabledAt: null },
    select: { ...userFields, passwordHash: true },
  });
}

export async function passwordHashOf(id: string): Promise<string | null> {
  return (
    (await db().user.findUnique({ where: { id }, select: { passwordHash: true } }))?.passwordHash ?? null
  );
}

/** The user of a live session, and whether the session is past half its life (time to extend it). */
export async function sessionUser(sessionId: string): Promise<{ user: AccountUser; stale: boolean } | null> {
  const session = await db().session.findUnique({
    where: { id: sessionId },
    select: { expiresAt: true, user: { select: { ...userFields, disabledAt: true } } },
  });
  if (!session || session.expiresAt <= new Date() || session.user.disabledAt) return null;
  const { disabledAt: _, ...user } = session.user;
  return { user, stale: session.expiresAt.getTime() - Date.now() < SESSION_DAYS_MS / 2 };
}

export const SESSION_DAYS_MS = 30 * 24 * 3600 * 1000;

export async function tokenUser(tokenHash: string) {
  const token = await db().apiToken.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { ...userFields, disabledAt: true } },
    },
  });
  if (!token || token.revokedAt || token.user.disabledAt) return null;
  const { disabledAt: _, ...user } = token.user;
  return { user, tokenId: token.id, lastUsedAt: token.lastUsedAt };
}

export async function listUsers() {
  return db().user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { ...userFields, createdAt: true, disabledAt: true },
  });
}

export async function findUser(id: string) {
  return db().user.findUnique({ where: { id }, select: { ...userFields, disabledAt: true } });
}

export async function listTokens(userId: string) {
  return db().apiToken.findMany({
    where: { userId },
    orderBy: { createdAt: 'desc' },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Links listed per audit: people create them by hand, a handful each; the newest this many are shown. */
const SHARES_LISTED_MAX = 500;

/** The audit's links, live, expired and revoked alike, newest first, with their creator's and revoker's
 * names (the list is the record of who was given access and who took it back). */
export async function listShares(auditId: string) {
  return db().share.findMany({
    where: { auditId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: SHARES_LISTED_MAX,
    select: {
      id: true,
      createdAt: true,
      expiresAt: true,
      revokedAt: true,
      lastViewedAt: true,
      creator: { select: { name: true } },
      revoker: { select: { name: true } },
    },
  });
}

export async function findShare(id: string) {
  return db().share.findUnique({ where: { id }, select: { id: true, auditId: true, revokedAt: true } });
}

/** The audit a share token opens, if the link is live, and who shared it (the report's cover names them). */
export async function sharedAudit(
  tokenHash: string,
): Promise<{ shareId: string; auditId: string; sharedBy: string } | null> {
  const share = await db().share.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      auditId: true,
      expiresAt: true,
      revokedAt: true,
      creator: { select: { name: true } },
    },
  });
  if (!share || share.revokedAt || (share.expiresAt && share.expiresAt <= new Date())) return null;
  return { shareId: share.id, auditId: share.auditId, sharedBy: share.creator.name };
}
