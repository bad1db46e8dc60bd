// Route-handler plumbing: JSON responses and the error envelope, so handlers stay parse → call → respond.
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
  const { status, body } = toErrorResponse(error);
  return json(body, { status });
}

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** Wraps a route handler so every thrown error becomes the API's error envelope. */
export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
