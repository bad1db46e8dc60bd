// Who is calling: a browser session (cookie) or a script (Authorization: Bearer <API token)). Route
// handlers go through `guarded` (lib/server/respond.ts), which calls requireActor with the role the endpoint
// needs: 401 without credentials, 403 for a role that may not, 403 for a cross-site cookie request.
import { AppError } from '@/lib/core/errors';
import { type AccountUser, sessionUser, tokenUser } from './data';
import { extendSession, touchApiToken } from './mutations';
import { peerOf } from './peer';
import { clientAddress, lastForwarded, parseTrustProxy, type TrustProxy, trustsPeer } from './proxy-trust';
import { allows, type Role } from './roles';
import { sha256 } from './secrets';

export const SESSION_COOKIE = 'sa_session';

export interface Actor extends AccountUser {
  via: 'session' | 'token';
  /** Set for a session past half its life: the response renews the cookie. */
  renewSession?: { token: string; expiresAt: Date };
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** Resolves a session token (the cookie's value) to its user, extending a session past half its life. */
export async function actorFromSessionToken(token: string | null): Promise<Actor | null> {
  if (!token) return null;
  const found = await sessionUser(sha256(token));
  if (!found) return null;
  const actor: Actor = { ...found.user, via: 'session' };
  if (found.stale) actor.renewSession = { token, expiresAt: await extendSession(sha256(token)) };
  return actor;
}

export async function actorFromRequest(request: Request): Promise<Actor | null> {
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) return null;
    const found = await tokenUser(sha256(match[1] as string));
    if (!found) return null;
    await touchApiToken(found.tokenId, found.lastUsedAt);
    return { ...found.user, via: 'token' };
  }
  return actorFromSessionToken(readCookie(request.headers.get('cookie'), SESSION_COOKIE));
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** TRUST_PROXY, read once per value (tests change it between cases). */
let trustCache: { raw: string | undefined; trust: TrustProxy } | null = null;
export function trustProxy(): TrustProxy {
  const raw = process.env.TRUST_PROXY;
  if (!trustCache || trustCache.raw !== raw) trustCache = { raw, trust: parseTrustProxy(raw) };
  return trustCache.trust;
}

/** Whether this request came through a proxy TRUST_PROXY trusts, so its X-Forwarded-* headers count. */
function viaTrustedProxy(request: Request): boolean {
  const peer = peerOf(request);
  return peer !== null && trustsPeer(trustProxy(), peer.address);
}

/** The host the client addressed: the Host header, or X-Forwarded-Host when a trusted proxy set it. */
export function requestHost(request: Request): string | null {
  const forwarded = viaTrustedProxy(request) ? lastForwarded(request.headers.get('x-forwarded-host')) : null;
  return forwarded ?? request.headers.get('host');
}

/**
 * A state-changing request carried by a cookie must come from our own pages: its Origin must be this
 * host (or, without Origin, Sec-Fetch-Site must say same-origin). SameSite=Lax already keeps the cookie
 * off cross-site POSTs in current browsers; this also covers older ones and same-site subdomains.
 */
export function checkSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get('origin');
  const host = requestHost(request);
  if (origin !== null && origin !== 'null') {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost !== null && originHost === host) return;
  } else if (request.headers.get('sec-fetch-site') === 'same-origin') {
    return;
  }
  throw new AppError('forbidden', 'Cross-site request refused: send it from the app, or use an API token');
}

/**
 * Sign-in and setup take no cookie, but a page on another site must not sign a visitor in to an account
 * of its choosing (login CSRF): a browser's Origin, when sent, must be ours. Scripts send none.
 */
export function checkOriginIfSent(request: Request): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  checkSameOrigin(request);
}

export async function requireActor(request: Request, needed: Role): Promise<Actor> {
  const actor = await actorFromRequest(request);
  if (!actor)
    throw new AppError('unauthenticated', 'Sign in, or send an API token as "Authorization: Bearer <token>"');
  if (actor.via === 'session') checkSameOrigin(request);
  if (!allows(actor.role, needed)) {
    throw new AppError('forbidden', `This needs the ${needed} role; you are signed in as ${actor.role}`);
  }
  return actor;
}

/** The origin people reach the app at: PUBLIC_URL when set, else what the client addressed (through a
 * proxy TRUST_PROXY trusts: what it forwarded). Links we hand out, such as share links, are built on it. */
export function publicOrigin(request: Request): string {
  const configured = process.env.PUBLIC_URL?.trim();
  if (configured) return new URL(configured).origin;
  const host = requestHost(request);
  if (!host) return new URL(request.url).origin;
  return `${isHttps(request) ? 'https' : 'http'}://${host}`;
}

/** Whether the client reached us over https: the socket's TLS, or X-Forwarded-Proto from a trusted proxy.
 * Without a stamped peer (a handler called directly), the request URL says. */
export function isHttps(request: Request): boolean {
  if (viaTrustedProxy(request)) {
    const forwarded = lastForwarded(request.headers.get('x-forwarded-proto'));
    if (forwarded) return forwarded.toLowerCase() === 'https';
  }
  const peer = peerOf(request);
  return peer ? peer.https : new URL(request.url).protocol === 'https:';
}

/** The client's address: the socket's peer, or the hop TRUST_PROXY points at in X-Forwarded-For. Null
 * when the peer is unknown (see ./peer.ts): then nothing is keyed on the address. */
export function clientIp(request: Request): string | null {
  const peer = peerOf(request);
  if (!peer) return null;
  return clientAddress(trustProxy(), peer.address, request.headers.get('x-forwarded-for'));
}

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;
}
