// Sign-in and first-run setup: the same answer whether or not an account exists (no enumeration),
// throttled per account and per client address.

import { jsonBody } from '@/lib/api/params';
import { AppError } from '@/lib/errors';
import { countUsers, passwordHashOf, userForLogin } from './data';
import {
  clearLoginFailures,
  createFirstAdmin,
  createSession,
  lockedUntil,
  recordLoginFailure,
  setOwnPassword,
  THROTTLE,
} from './mutations';
import { type Actor, checkOriginIfSent, clientIp, readCookie, SESSION_COOKIE } from './request';
import { ZLogin, ZPasswordChange, ZSetup } from './schema';
import { sha256, verifyPassword } from './secrets';

export interface SignedIn {
  user: { id: string; email: string; name: string; role: string };
  token: string;
  expiresAt: Date;
}

const WRONG = 'The email or password is not right';

export async function login(request: Request): Promise<SignedIn> {
  checkOriginIfSent(request);
  const input = ZLogin.parse(await jsonBody(request));
  const ip = clientIp(request);
  const accountKey = `email:${input.email}`;
  const keys = [accountKey, ...(ip ? [`ip:${ip}`] : [])];
  const until = await lockedUntil(keys);
  if (until) {
    const minutes = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60_000));
    throw new AppError(
      'too_many_requests',
      `Too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
    );
  }
  const user = await userForLogin(input.email);
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) {
    await recordLoginFailure([
      { key: accountKey, limit: THROTTLE.account },
      ...(ip ? [{ key: `ip:${ip}`, limit: THROTTLE.ip }] : []),
    ]);
    throw new AppError('unauthenticated', WRONG);
  }
  await clearLoginFailures(accountKey);
  const { passwordHash: _, ...account } = user;
  const session = await createSession(user.id, ip, request.headers.get('user-agent'));
  return { user: account, ...session };
}

/** Changes the caller's own password after checking the current one; other sessions are signed out. */
export async function changeOwnPassword(request: Request, actor: Actor): Promise<void> {
  const input = ZPasswordChange.parse(await jsonBody(request));
  if (!(await verifyPassword(await passwordHashOf(actor.id), input.current))) {
    throw new AppError('forbidden', 'The current password is not right');
  }
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
