// Parsing of path parameters, query parameters and JSON bodies shared by route handlers: everything a
// client sends is checked here (or by a zod schema) before it can reach SQL, so bad input is a 400/404.
import { AppError } from '@/lib/core/errors';
import { INT4_MAX, textProblem } from './text';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGITS = /^[0-9]{1,10}$/;

/** Any resource id (UUID) from the path; anything else cannot exist, so it is a 404. */
export function idParam(value: string | undefined, what: string): string {
  if (!value || !UUID.test(value)) throw new AppError('not_found', `No such ${what}`);
  return value.toLowerCase();
}

/** An audit id from the path; anything that is not a UUID cannot exist, so it is a 404. */
export function auditIdParam(value: string | undefined): string {
  return idParam(value, 'audit');
}

/** A finding's number from the path (an `int4`, from 1): anything else cannot exist, so it is a 404. */
export function findingIdParam(value: string | undefined): number {
  const n = value !== undefined && DIGITS.test(value) ? Number(value) : 0;
  if (n < 1 || n > INT4_MAX) throw new AppError('not_found', 'No such finding');
  return n;
}

// ── Query strings ────────────────────────────────────────────────────────────────────────────────────

/** Longest query string taken (Node's HTTP server refuses request heads over 16 KiB anyway; handlers
 * called otherwise must not get a 10 MB `q` through to a slow query). */
export const MAX_QUERY_CHARS = 16_384;

/** Refuses a query string that is too long or holds text Postgres cannot store (see lib/core/text.ts),
 * naming the parameter. route() runs it before every handler. */
export function checkQuery(url: string): void {
  const { search, searchParams } = new URL(url);
  if (search.length > MAX_QUERY_CHARS) {
    throw new AppError(
      'validation_failed',
      `The query string is too long (${search.length} characters; at most ${MAX_QUERY_CHARS})`,
    );
  }
  for (const [key, value] of searchParams) {
    const problem = textProblem(key) ?? textProblem(value);
    if (problem) throw new AppError('validation_failed', `query parameter ${JSON.stringify(key)} ${problem}`);
  }
}

export function limitParam(value: string | null, fallback: number, max: number): number {
  if (value === null || value === '') return fallback;
  const n = DIGITS.test(value) ? Number(value) : 0;
  if (n < 1 || n > max) {
    throw new AppError('validation_failed', `limit must be a whole number from 1 to ${max}`);
  }
  return n;
}

/** The file list's cursor: the position (an `int4`) of the last file of the previous page. */
export function positionCursorParam(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const n = DIGITS.test(value) ? Number(value) : -1;
  if (n < 0 || n > INT4_MAX) throw new AppError('validation_failed', 'cursor is not valid');
  return n;
}

// ── JSON bodies ──────────────────────────────────────────────────────────────────────────────────────

/** Largest JSON body taken: the biggest real one, a decision on 10,000 ids, is about 110 KB. */
export const MAX_JSON_BYTES = 1024 * 1024;
/** Deepest nesting taken: real bodies are 3 levels deep (a decision's filter). */
const MAX_JSON_DEPTH = 32;

async function readCapped(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > MAX_JSON_BYTES) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > MAX_JSON_BYTES) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('bad_request', 'The request body could not be read (the client went away?)');
  }
  // Invalid UTF-8 becomes U+FFFD, as request.json() would read it.
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(): AppError {
  return new AppError('payload_too_large', `A JSON body can be at most ${MAX_JSON_BYTES / 1024 / 1024} MiB`);
}

/** `a.b[2]`: where in the body a value is, for messages. */
function pathText(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, part) => {
    if (typeof part === 'number') return `${text}[${part}]`;
    return text ? `${text}.${part}` : part;
  }, '');
}

/** Refuses strings (keys too) Postgres cannot store and absurd nesting, naming where; iterative, so a
 * 100,000-deep array cannot overflow the stack. */
function checkJsonValue(root: unknown): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw new AppError('validation_failed', `${pathText(path) || 'body'}: ${problem}`);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_JSON_DEPTH) {
      throw new AppError(
        'validation_failed',
        `The body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
      );
    }
    if (Array.isArray(value)) {
      value.forEach((element, i) => {
        stack.push({ value: element, path: [...path, i] });
      });
      continue;
    }
    for (const [key, element] of Object.entries(value)) {
      const problem = textProblem(key);
      if (problem)
        throw new AppError('validation_failed', `a field name in ${pathText(path) || 'the body'} ${problem}`);
      stack.push({ value: element, path: [...path, key] });
    }
  }
}

/** A multipart field that carries JSON text (`options`, `crawler`): undefined when absent or blank, else its
 * value, or a 400 that names the field. */
export function jsonField(field: string, text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('validation_failed', `${field} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The request body as JSON (at most 1 MiB, strings storable, at most 32 levels deep), or a 4xx that says
 * why not. The content type is not checked: browsers' `fetch` sends a string body as text/plain. */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = await readCapped(request);
  if (text.trim() === '') throw new AppError('bad_request', 'The body is empty: send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError('bad_request', `The body is not valid JSON: ${(error as Error).message}`);
  }
  checkJsonValue(value);
  return value;
}
