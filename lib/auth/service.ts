// Sign-in and first-run setup: the same answer whether or not an account exists (no enumeration),
// throttled per account and per client address (TRUST_PROXY decides which address: ./request.ts).

import { AppError } from '@/lib/core/errors';
import { jsonBody } from '@/lib/core/params';
import { countUsers, passwordHashOf, userForLogin } from './data';
import {
  clearLoginFailures,
  createFirstAdmin,
  createSession,
  lockedUntil,
  lockIfAtLimit,
  releaseAttempt,
  reserveAttempt,
  setOwnPassword,
  THROTTLE,
  type ThrottleKey,
} from './mutations';
import { safeNextPath } from './next-path';
import { type Actor, checkOriginIfSent, clientIp, readCookie, SESSION_COOKIE } from './request';
import type { Role } from './roles';
import { ZLogin, ZPasswordChange, ZSetup } from './schema';
import { sha256, verifyPassword } from './secrets';

export interface SignedIn {
  user: { id: string; email: string; name: string; role: Role };
  token: string;
  expiresAt: Date;
}

const WRONG = 'The email or password is not right';

async function tooMany(keys: string[], what: string): Promise<AppError> {
  // No lock yet means the attempts that filled the window are still being checked: a full window then.
  const until = await lockedUntil(keys);
  const ms = until ? until.getTime() - Date.now() : THROTTLE.windowMs;
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return new AppError(
    'too_many_requests',
    `${what}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
  );
}

/**
 * Checks a password only once an attempt is reserved against every key (429 when one is used up), so
 * concurrency cannot buy extra checks. A wrong password leaves the attempt counted; a right one clears
 * the `clear` keys (the account's) and gives the attempt back to the others (the address's).
 */
async function throttledCheck(
  keys: ThrottleKey[],
  clear: string[],
  what: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  if (!(await reserveAttempt(keys)))
    throw await tooMany(
      keys.map((k) => k.key),
      what,
    );
  let ok = false;
  try {
    ok = await check();
  } finally {
    if (ok) {
      await Promise.all(clear.map(clearLoginFailures));
      await releaseAttempt(keys.map((k) => k.key).filter((key) => !clear.includes(key)));
    } else {
      await lockIfAtLimit(keys);
    }
  }
  return ok;
}

export async function login(request: Request): Promise<SignedIn & { next: string }> {
  checkOriginIfSent(request);
  const input = ZLogin.parse(await jsonBody(request));
  const ip = clientIp(request);
  const accountKey = `email:${input.email}`;
  const keys = [
    { key: accountKey, limit: THROTTLE.account },
    ...(ip ? [{ key: `ip:${ip}`, limit: THROTTLE.ip }] : []),
  ];
  const user = await userForLogin(input.email);
  // An unknown account is checked against a dummy hash and counted the same (no enumeration).
  const ok = await throttledCheck(keys, [accountKey], 'Too many failed sign-ins', () =>
    verifyPassword(user?.passwordHash ?? null, input.password),
  );
  if (!user || !ok) throw new AppError('unauthenticated', WRONG);
  const { passwordHash: _, ...account } = user;
  const session = await createSession(user.id, ip, request.headers.get('user-agent'));
  return { user: account, ...session, next: safeNextPath(input.next) };
}

/** Changes the caller's own password after checking the current one (throttled like sign-in, on a key
 * of its own per user); other sessions are signed out. */
export async function changeOwnPassword(request: Request, actor: Actor): Promise<void> {
  const input = ZPasswordChange.parse(await jsonBody(request));
  const key = `password:${actor.id}`;
  const ok = await throttledCheck(
    [{ key, limit: THROTTLE.account }],
    [key],
    'Too many wrong current passwords',
    async () => verifyPassword(await passwordHashOf(actor.id), input.current),
  );
  if (!ok) throw new AppError('forbidden', 'The current password is not right');
  const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE);
  await setOwnPassword(actor.id, input.password, actor.via === 'session' && token ? sha256(token) : null);
}

/** Creates the first admin and signs them in; once any user exists, setup is gone (404). */
export async function setup(request: Request): Promise<SignedIn> {
  checkOriginIfSent(request);
  if ((await countUsers()) > 0) throw new AppError('not_found', 'Setup is done; sign in instead');
  const input = ZSetup.parse(await jsonBody(request));
  const user = await createFirstAdmin(input);
  if (!user) throw new AppError('not_found', 'Setup is done; sign in instead');
  const session = await createSession(user.id, clientIp(request), request.headers.get('user-agent'));
  return { user, ...session };
}
