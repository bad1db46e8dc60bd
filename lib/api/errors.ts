// The API's error envelope: any thrown value becomes a status and `{ error: { code, message } }` here.
import { ZodError } from 'zod';
import { AppError } from '@/lib/errors';

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
