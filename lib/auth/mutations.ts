// Writes for accounts: users, sessions, API tokens, sign-in throttling and share links.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { db, pool, transaction } from '@/lib/db/client';
import { SESSION_DAYS_MS } from './data';
import type { Role } from './roles';
import { hashPassword, newSecret } from './secrets';

export interface NewUser {
  email: string;
  name: string;
  role: Role;
  password: string;
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === 'P2002' || (error as { code?: string }).code === '23505';
}

export async function createUser(input: NewUser) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db().user.create({
      data: { id: randomUUID(), email: input.email, name: input.name, role: input.role, passwordHash },
      select: { id: true, email: true, name: true, role: true },
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('conflict', `A user with the email ${input.email} exists`);
    throw error;
  }
}

/** Creates the first admin only while there is no user at all (two concurrent setups: one wins). */
export async function createFirstAdmin(input: Omit<NewUser, 'role'>) {
  const passwordHash = await hashPassword(input.password);
  return transaction(async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('sitemap-audit:first-admin'))");
    const { rows } = await client.query(
      `INSERT INTO users (id, email, name, role, password_hash)
       SELECT $1, $2, $3, 'admin', $4 WHERE NOT EXISTS (SELECT 1 FROM users)
       RETURNING id, email, name, role`,
      [randomUUID(), input.email, input.name, passwordHash],
    );
    return rows[0] as { id: string; email: string; name: string; role: Role } | undefined;
  });
}

export async function updateUser(
  id: string,
  change: { role?: Role; disabled?: boolean; password?: string; revokeTokens?: boolean },
) {
  const data: { role?: Role; disabledAt?: Date | null; passwordHash?: string } = {};
  if (change.role) data.role = change.role;
  if (change.disabled !== undefined) data.disabledAt = change.disabled ? new Date() : null;
  if (change.password) data.passwordHash = await hashPassword(change.password);
  const client = db();
  // One transaction: a reset that answered 200 has ended the sessions and the tokens with it.
  const [user] = await client.$transaction([
    client.user.update({ where: { id }, data, select: { id: true, email: true, name: true, role: true } }),
    // A disabled account or a new password signs the user out everywhere.
    ...(change.disabled || change.password ? [client.session.deleteMany({ where: { userId: id } })] : []),
    // An admin resets a password when it may be known to someone else, who may have made tokens with it.
    ...(change.password && change.revokeTokens !== false
      ? [
          client.apiToken.updateMany({
            where: { userId: id, revokedAt: null },
            data: { revokedAt: new Date() },
          }),
        ]
      : []),
  ]);
  return user;
}

/** A new password; every session of the user ends except `keepSessionId` (the one that changed it). */
export async function setOwnPassword(
  id: string,
  password: string,
  keepSessionId: string | null,
): Promise<void> {
  await db().user.update({ where: { id }, data: { passwordHash: await hashPassword(password) } });
  await db().session.deleteMany({
    where: { userId: id, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
  });
}

export async function deleteUser(id: string): Promise<void> {
  await db().user.delete({ where: { id } });
}

export async function createSession(userId: string, ip: string | null, userAgent: string | null) {
  const { token, hash } = newSecret('sa_');
  const expiresAt = new Date(Date.now() + SESSION_DAYS_MS);
  await db().session.create({
    data: { id: hash, userId, expiresAt, ip, userAgent: userAgent?.slice(0, 300) ?? null },
  });
  return { token, expiresAt };
}

export async function extendSession(sessionId: string): Promise<Date> {
  const expiresAt = new Date(Date.now() + SESSION_DAYS_MS);
  await db().session.updateMany({ where: { id: sessionId }, data: { expiresAt } });
  return expiresAt;
}

export async function deleteSession(sessionId: string): Promise<void> {
  await db().session.deleteMany({ where: { id: sessionId } });
}

export async function deleteUserSessions(userId: string): Promise<number> {
  const { count } = await db().session.deleteMany({ where: { userId } });
  return count;
}

/** Failed password checks allowed per window before a key is locked, and the window (= lock) length. */
export const THROTTLE = { account: 5, ip: 30, windowMs: 15 * 60_000 } as const;

/** A throttle key (`email:…`, `ip:…`, `password:<user id>`) and the failures it allows per window. */
export interface ThrottleKey {
  key: string;
  limit: number;
}

/** When the latest of these keys unlocks, if any is locked. */
export async function lockedUntil(keys: string[]): Promise<Date | null> {
  const { rows } = await pool().query<{ until: Date | null }>(
    'SELECT max(locked_until) AS until FROM login_throttle WHERE key = ANY($1) AND locked_until > now()',
    [keys],
  );
  return rows[0]?.until ?? null;
}

// One statement per key, so concurrent attempts queue on the row: each takes the next count, and an
// attempt that would pass the limit (or meets a lock) changes nothing and gets no row back. A new window
// starts once the old one is over and no lock holds.
const RESERVE = `
  INSERT INTO login_throttle AS t (key, failures, window_start) VALUES ($1, 1, now())
  ON CONFLICT (key) DO UPDATE SET
    failures = CASE WHEN t.window_start < now() - $3 * interval '1 millisecond' THEN 1 ELSE t.failures + 1 END,
    window_start = CASE WHEN t.window_start < now() - $3 * interval '1 millisecond' THEN now() ELSE t.window_start END
  WHERE (t.locked_until IS NULL OR t.locked_until <= now())
    AND (t.failures < $2 OR t.window_start < now() - $3 * interval '1 millisecond')
  RETURNING failures`;

/**
 * Counts an attempt against every key BEFORE the password is checked (so 40 concurrent guesses get 5
 * checks, not 20). False when a key is at its limit or locked: then nothing stays counted.
 */
export async function reserveAttempt(keys: ThrottleKey[]): Promise<boolean> {
  const reserved: string[] = [];
  for (const { key, limit } of keys) {
    const { rowCount } = await pool().query(RESERVE, [key, limit, THROTTLE.windowMs]);
    if (!rowCount) {
      await releaseAttempt(reserved);
      return false;
    }
    reserved.push(key);
  }
  return true;
}

/** The password was wrong: the reserved attempts stay counted, and a key at its limit is locked. */
export async function lockIfAtLimit(keys: ThrottleKey[]): Promise<void> {
  await pool().query(
    `UPDATE login_throttle AS t SET locked_until = now() + $3 * interval '1 millisecond'
       FROM unnest($1::text[], $2::int[]) AS k(key, lim)
      WHERE t.key = k.key AND t.failures >= k.lim AND (t.locked_until IS NULL OR t.locked_until <= now())`,
    [keys.map((k) => k.key), keys.map((k) => k.limit), THROTTLE.windowMs],
  );
}

/** Gives back a reserved attempt that was not a failure (the password was right). */
export async function releaseAttempt(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await pool().query('UPDATE login_throttle SET failures = greatest(failures - 1, 0) WHERE key = ANY($1)', [
    keys,
  ]);
}

export async function clearLoginFailures(key: string): Promise<void> {
  await pool().query('DELETE FROM login_throttle WHERE key = $1', [key]);
}

export async function createApiToken(userId: string, name: string) {
  const { token, hash } = newSecret('sat_');
  const row = await db().apiToken.create({
    data: { id: randomUUID(), userId, name, tokenHash: hash, prefix: token.slice(0, 10) },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  return { ...row, token };
}

/** Records a token's use at most once a minute (a busy script does not write on every call). */
export async function touchApiToken(id: string, lastUsedAt: Date | null): Promise<void> {
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < 60_000) return;
  await db().apiToken.updateMany({ where: { id }, data: { lastUsedAt: new Date() } });
}

export async function revokeApiToken(userId: string, id: string): Promise<boolean> {
  const { count } = await db().apiToken.updateMany({
    where: { id, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

export async function createShare(auditId: string, userId: string, expiresAt: Date | null) {
  const { token, hash } = newSecret('sar_');
  const row = await db().share.create({
    data: { id: randomUUID(), auditId, createdBy: userId, tokenHash: hash, expiresAt },
    select: { id: true, expiresAt: true, createdAt: true },
  });
  return { ...row, token };
}

/** Revokes a link once: a second revocation keeps the first one's time and name. */
export async function revokeShare(id: string, byUserId: string): Promise<void> {
  await db().share.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date(), revokedBy: byUserId },
  });
}

export async function touchShare(id: string): Promise<void> {
  await db().share.updateMany({ where: { id }, data: { lastViewedAt: new Date() } });
}
