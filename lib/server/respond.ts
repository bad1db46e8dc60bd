// Route-handler plumbing: JSON responses and the error envelope, so handlers stay parse → call → respond.
import { type Actor, isHttps, requireActor, sessionCookie } from '@/lib/auth/request';
import type { Role } from '@/lib/auth/roles';
import { checkQuery } from '@/lib/core/params';
import { toErrorResponse } from './errors';

// BigInt columns (byte counts) serialise as numbers; they stay far below 2^53.
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body, replacer), { ...init, headers });
}

export function errorResponse(error: unknown): Response {
  const { status, body, headers } = toErrorResponse(error);
  return json(body, { status, headers });
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Wraps a route handler so every thrown error becomes the API's error envelope. The query string is
 * checked first (length, NUL, unpaired surrogates), so no handler has to remember it. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      checkQuery(request.url);
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

type GuardedHandler<C> = (request: Request, context: C, actor: Actor) => Promise<Response>;

/** A route handler for signed-in callers with at least the `needed` role (see lib/auth/request.ts). */
export function guarded<C>(needed: Role, handler: GuardedHandler<C>): Handler<C> {
  return route(async (request, context) => {
    const actor = await requireActor(request, needed);
    const response = await handler(request, context, actor);
    if (actor.renewSession) {
      const { token, expiresAt } = actor.renewSession;
      response.headers.append('set-cookie', sessionCookie(token, expiresAt, isHttps(request)));
    }
    return response;
  });
}
