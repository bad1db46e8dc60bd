// Parsing of path and query parameters shared by route handlers.
import { AppError } from '@/lib/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any resource id (UUID) from the path; anything else cannot exist, so it is a 404. */
export function idParam(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new AppError('not_found', `No such ${what}`);
  return value.toLowerCase();
}

/** The request body as JSON, or a 400 that says why not. */
export async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch (error) {
    throw new AppError('bad_request', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/** An audit id from the path; anything that is not a UUID cannot exist, so it is a 404. */
export function auditIdParam(value: string | undefined): string {
  if (!value || !UUID.test(value)) throw new AppError('not_found', 'No such audit');
  return value.toLowerCase();
}

export function limitParam(value: string | null, fallback: number, max: number): number {
  if (value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError('validation_failed', `limit must be a whole number from 1 to ${max}`);
  }
  return n;
}

export function cursorParam(value: string | null): string | undefined {
  if (value === null || value === '') return undefined;
  if (!UUID.test(value)) throw new AppError('validation_failed', 'cursor is not valid');
  return value;
}

/** The file list's cursor: the position of the last file of the previous page. */
export function positionCursorParam(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new AppError('validation_failed', 'cursor is not valid');
  return n;
}
