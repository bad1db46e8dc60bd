// The diff's keyset cursor: the last row's place in the stable order (type in DIFF_TYPES order, then key),
// opaque to clients and checked part by part before it reaches SQL.

import { AppError } from '@/lib/core/errors';
import { textProblem } from '@/lib/core/text';
import { DIFF_TYPES, type DiffType } from '../schema';

export interface DiffCursor {
  type: DiffType;
  key: string;
}

export function encodeDiffCursor(cursor: DiffCursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.type, k: cursor.key })).toString('base64url');
}

const INVALID = 'cursor is not valid for this diff: pass the nextCursor of the previous page';

/** The cursor of `text`, or a 400; with `type`, a cursor of another type's pages is refused too. */
export function decodeDiffCursor(text: string | undefined, type: DiffType | undefined): DiffCursor | null {
  if (text === undefined) return null;
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('validation_failed', INVALID);
  }
  const c = (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Record<
    string,
    unknown
  >;
  const keysOk = Object.keys(c).length === 2 && 't' in c && 'k' in c;
  const typeOk = DIFF_TYPES.some((t) => t === c.t) && (type === undefined || c.t === type);
  const keyOk = typeof c.k === 'string' && c.k.length <= 4096 && textProblem(c.k) === null;
  if (!keysOk || !typeOk || !keyOk) throw new AppError('validation_failed', INVALID);
  return { type: c.t as DiffType, key: c.k as string };
}
