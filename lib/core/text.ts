// Rules for any text a client sends (query values, JSON strings, multipart fields, zod schemas), pure and
// isomorphic: Postgres `text` cannot hold U+0000 (the query fails: a 500), and an unpaired UTF-16 surrogate
// has no UTF-8 form (it would be stored as U+FFFD, silently changing what the client sent).
import { z } from 'zod';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Null when `value` can be stored as sent, else what is wrong with it (to follow the field's name). */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

/** `z.string()` that refuses what textProblem refuses; chain `.trim()`, `.max()` etc. after it. */
export function zText() {
  return z.string().superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** An absolute http(s) URL a client sends (a sitemap, a crawl export, a start URL), as zText, trimmed. */
export function zHttpUrl() {
  return zText()
    .trim()
    .min(1)
    .max(2048)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    }, 'must be an absolute http(s) URL');
}

/** Integer columns: a finding id, a sitemap file id or position, a status, depth or inlinks are `int4`. */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;

/** Escapes LIKE wildcards so user text matches literally. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
