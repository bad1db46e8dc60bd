// Opens one file of the tree as a byte stream: an upload from the store (lib/storage), or a URL through the safe fetcher
// within the ingest limits and the audit's fetch budget. An HTTP error, a network failure or a spent
// budget comes back as the file's outcome instead.
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import { openStored } from '@/lib/storage/store';
import { notModifiedWithoutCopy } from './conditional';
import { type FetchBudget, FetchBudgetError, metered } from './fetch-budget';
import { emptyOutcome, fileError } from './file-outcome';
import type { Origin } from './origin';
import type { FileOutcome, WalkOptions } from './tree-types';

export type OpenResult =
  | {
      ok: true;
      body: AsyncIterable<Uint8Array>;
      httpStatus: number | null;
      finalUrl: string | null;
      wire: () => number | null;
      etag: string | null;
      lastModified: string | null;
      /** How the response was served (null for an upload), stored for the lint's serving rules. */
      contentType: string | null;
      contentEncoding: string | null;
    }
  | {
      ok: false;
      outcome: FileOutcome;
      /** Set on a 304 Not Modified (its validators): the walker reuses the earlier copy when it has one;
       * otherwise `outcome` is already the file's error. */
      notModified?: { etag: string | null; lastModified: string | null };
    };

function httpReason(status: number): string {
  if (status === 404) return 'not found';
  if (status === 410) return 'gone';
  if (status === 401 || status === 403) return 'access denied';
  if (status === 429) return 'too many requests';
  if (status >= 500) return 'server error';
  return 'unexpected status';
}

/**
 * `optional`: a fallback candidate of a site root, whose 404 is expected and recorded as skipped.
 * `stop`: ends this one fetch (the walk no longer wants the file).
 * `conditions`: If-None-Match / If-Modified-Since of the site's previous copy (conditional.ts).
 */
export async function openSource(
  origin: Origin,
  options: WalkOptions,
  optional: boolean | undefined,
  budget: FetchBudget,
  stop?: AbortSignal,
  conditions?: Record<string, string>,
): Promise<OpenResult> {
  const limits = options.limits;
  if (origin.type === 'upload') {
    let body: AsyncIterable<Uint8Array>;
    try {
      body = await openStored(origin.upload.storedPath);
    } catch (error) {
      // Gone from the store (a bucket emptied by hand) or unreachable: this file's error, as a bad file is.
      return { ok: false, outcome: emptyOutcome('failed', fileError(error, origin.upload.fileName)) };
    }
    return {
      ok: true,
      body,
      httpStatus: null,
      finalUrl: null,
      wire: () => null,
      etag: null,
      lastModified: null,
      contentType: null,
      contentEncoding: null,
    };
  }
  const file = budget.file([options.signal, stop]);
  try {
    const response = await safeFetch(origin.url, {
      maxBytes: limits.maxFileBytes,
      timeoutMs: limits.fetchTimeoutMs,
      retries: limits.fetchRetries,
      ...options.fetch,
      ...(conditions ? { headers: { ...options.fetch?.headers, ...conditions } } : {}),
      signal: file.signal,
    });
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    };
    if (response.status === 304) {
      response.body.destroy();
      const outcome = notModifiedWithoutCopy('unasked');
      outcome.finalUrl = response.url;
      return {
        ok: false,
        outcome,
        notModified: { etag: header('etag'), lastModified: header('last-modified') },
      };
    }
    if (response.status >= 400) {
      response.body.destroy();
      const attempts = response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
      const outcome = emptyOutcome(optional && response.status === 404 ? 'skipped' : 'failed', {
        code: `http_${response.status}`,
        message: `HTTP ${response.status} (${httpReason(response.status)})${attempts}`,
      });
      outcome.httpStatus = response.status;
      outcome.finalUrl = response.url;
      return { ok: false, outcome };
    }
    return {
      ok: true,
      body: Object.assign(metered(response.body, budget, file), { destroy: () => response.body.destroy() }),
      httpStatus: response.status,
      finalUrl: response.url,
      wire: () => response.compressedBytes(),
      etag: header('etag'),
      lastModified: header('last-modified'),
      contentType: header('content-type'),
      contentEncoding: header('content-encoding'),
    };
  } catch (caught) {
    const error = file.explain(caught);
    if (error instanceof NetError || error instanceof FetchBudgetError)
      return { ok: false, outcome: emptyOutcome('failed', { code: error.code, message: error.message }) };
    throw error;
  }
}
