// The API's error envelope: any thrown value becomes a status and `{ error: { code, message } }` here.
import { ZodError } from 'zod';
import { AppError } from '@/lib/core/errors';
import { isDatabaseUnavailable } from '@/lib/db/errors';

export interface ErrorEnvelope {
  error: { code: string; message: string };
}

function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

/** Seconds a client is asked to wait while the database is away (the supervisor restarts it within a few). */
export const UNAVAILABLE_RETRY_AFTER = 5;

/** Maps any thrown value to a status and envelope; unexpected errors are logged, never leaked. */
export function toErrorResponse(error: unknown): {
  status: number;
  body: ErrorEnvelope;
  headers?: Record<string, string>;
} {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message } },
      ...(error.retryAfter !== undefined ? { headers: { 'retry-after': String(error.retryAfter) } } : {}),
    };
  }
  if (error instanceof ZodError) {
    return { status: 400, body: { error: { code: 'validation_failed', message: describeZodError(error) } } };
  }
  if (isDatabaseUnavailable(error)) {
    console.error(`[api] the database is unavailable: ${(error as Error).message}`);
    return {
      status: 503,
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER) },
      body: {
        error: { code: 'unavailable', message: 'The database is restarting; try again in a few seconds.' },
      },
    };
  }
  console.error('[api] unexpected error', error);
  return { status: 500, body: { error: { code: 'internal', message: 'Something went wrong on our side.' } } };
}
