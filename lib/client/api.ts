// The browser's client for /api/v1: one fetch wrapper that reads the JSON body and turns the error envelope
// into an ApiError. Browser-safe (no server modules); the TanStack Query hooks in lib/*/hooks.ts call it.

/** An API failure carrying the envelope's user-safe message, code and HTTP status (0: no answer). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The code and message of an `{ error: { code, message } }` body, as far as they are there. */
export function parseErrorEnvelope(body: unknown): { code?: string; message?: string } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return {};
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return {};
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    code: typeof code === 'string' ? code : undefined,
    message: typeof message === 'string' ? message : undefined,
  };
}

export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const { code, message } = parseErrorEnvelope(body);
    throw new ApiError(
      response.status,
      code ?? 'http_error',
      message ?? `The server answered with HTTP ${response.status}.`,
    );
  }
  return body as T;
}

/** `apiFetch` with a JSON request body. */
export function sendJson<T>(path: string, method: 'POST' | 'PATCH' | 'DELETE', body?: unknown): Promise<T> {
  return apiFetch<T>(path, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * What a route handler may pass to `json()` for a response the browser reads as `T`: JSON.stringify turns
 * Dates into ISO strings and lib/server/respond.ts turns bigints into numbers. Handlers write
 * `json(body satisfies Sendable<TheDto>)`, so the server and the hooks reading `TheDto` cannot drift apart.
 */
export type Sendable<T> = T extends string
  ? string extends T
    ? T | Date
    : T
  : T extends number
    ? number extends T
      ? T | bigint
      : T
    : T extends readonly (infer U)[]
      ? readonly Sendable<U>[]
      : T extends object
        ? { [K in keyof T]: Sendable<T[K]> }
        : T;
