// The one error type that any layer may throw (data code, services, route handlers): a stable code and
// a message that is safe to show a user. lib/server/errors.ts turns it into the API's error envelope.

export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'too_many_requests'
  | 'validation_failed'
  | 'not_found'
  | 'payload_too_large'
  | 'inflated_too_large'
  | 'unsupported_media_type'
  | 'conflict'
  | 'spot_check_required'
  | 'unavailable'
  | 'internal';

/** The HTTP status each code answers with, in one place. */
const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  too_many_requests: 429,
  validation_failed: 400,
  not_found: 404,
  payload_too_large: 413,
  inflated_too_large: 413,
  unsupported_media_type: 415,
  conflict: 409,
  spot_check_required: 409,
  unavailable: 503,
  internal: 500,
};

/** An error whose message is safe to show a user. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Seconds a client should wait before trying again (sent as Retry-After), when that is known. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return statusOf[this.code];
  }
}
