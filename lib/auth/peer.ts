// The socket's peer address, which Next.js does not hand to route handlers: it only fills in
// X-Forwarded-For when the client sent none (`??=` in next/dist/server/base-server.js), so a client that
// sends one hides its address. `installPeerStamp` (run once by instrumentation.ts) writes the socket's
// address and TLS state into a header of every request as it arrives; `peerOf` reads it back.
// The header carries a per-process secret, so a client sending the same header name is not believed.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';

export const PEER_HEADER = 'x-sitemap-audit-peer';
const SECRET = Symbol.for('sitemap-audit.peer-secret');

type WithSecret = { [SECRET]?: string };

function secret(): string | undefined {
  return (globalThis as WithSecret)[SECRET];
}

function stamp(request: IncomingMessage, key: string): void {
  const socket = request.socket as TLSSocket | undefined;
  const scheme = socket?.encrypted ? 'https' : 'http';
  request.headers[PEER_HEADER] = `${key} ${scheme} ${socket?.remoteAddress ?? ''}`;
}

/** Stamps every request every http(s) server of this process receives from now on. Idempotent. */
export function installPeerStamp(): void {
  const holder = globalThis as WithSecret;
  if (holder[SECRET]) return;
  const key = randomBytes(18).toString('base64url');
  holder[SECRET] = key;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (
      this: unknown,
      event: string | symbol,
      ...args: unknown[]
    ) => boolean;
    Server.prototype.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
      if (event === 'request') stamp(args[0] as IncomingMessage, key);
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}

/** The peer as stamped on this request, or null (no stamp installed, a request that arrived before it
 * was, or a header that did not come from the stamp). */
export function peerOf(request: Request): { address: string; https: boolean } | null {
  const key = secret();
  const value = request.headers.get(PEER_HEADER);
  if (!key || !value) return null;
  const [given, scheme, address] = value.split(' ');
  if (!given || !address || given.length !== key.length) return null;
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(key))) return null;
  return { address, https: scheme === 'https' };
}
