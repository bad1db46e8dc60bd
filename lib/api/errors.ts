// One error type with a stable code, mapped to an HTTP status and the API's error envelope in one place.
import { ZodError } from 'zod';

export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'too_many_requests'
  | 'validation_failed'
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'conflict'
  | 'internal';

const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  too_many_requests: 429,
  validation_failed: 400,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  conflict: 409,
  internal: 500,
};

/** An error whose message is safe to show a user. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return statusOf[this.code];
  }
}

export interface ErrorEnvelope {
  error: { code: string; message: string };
}

function describeZodError(error: ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

/** Maps any thrown value to a status and envelope; unexpected errors are logged, never leaked. */
export function toErrorResponse(error: unknown): { status: number; body: ErrorEnvelope } {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: { code: error.code, message: error.message } } };
  }
  if (error instanceof ZodError) {
    return { status: 400, body: { error: { code: 'validation_failed', message: describeZodError(error) } } };
  }
  console.error('[api] unexpected error', error);
  return { status: 500, body: { error: { code: 'internal', message: 'Something went wrong on our side.' } } };
}
