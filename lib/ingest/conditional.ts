// Conditional fetching against a site's previous audit (docs/monitoring.md, "Conditional fetching"): the
// validators a request sends, and what a file answered 304 Not Modified records. Pure.
import type { SitemapChildEntry } from '@/lib/sitemap/types';
import { emptyOutcome } from './file-outcome';
import type { FileOutcome, PreviousCopy } from './tree-types';

/** The validators a 304 answers to: both when both are stored (a server may honour either one). */
export function conditionalHeaders(copy: PreviousCopy | undefined): Record<string, string> | undefined {
  if (!copy) return undefined;
  const headers: Record<string, string> = {};
  if (copy.etag) headers['if-none-match'] = copy.etag;
  if (copy.lastModified) headers['if-modified-since'] = copy.lastModified;
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** A 304 is not content: without an earlier copy to reuse it says nothing about the file's entries,
 * so it is that file's error, never an empty success. */
export function notModifiedWithoutCopy(reason: 'unasked' | 'vanished'): FileOutcome {
  const outcome = emptyOutcome('failed', {
    code: 'not_modified_without_copy',
    message:
      reason === 'unasked'
        ? 'HTTP 304 Not Modified, but no earlier copy of this file is stored to reuse (the request sent no If-None-Match or If-Modified-Since)'
        : 'HTTP 304 Not Modified, but the earlier copy of this file was deleted while this audit ran: nothing to reuse',
  });
  outcome.httpStatus = 304;
  return outcome;
}

/** The child list of a reused index, walked as if the index had been parsed again. */
export function reusedChildren(copy: PreviousCopy, max: number): SitemapChildEntry[] {
  return copy.children.slice(0, max).map((loc, i) => ({
    type: 'sitemap',
    loc,
    lastmodRaw: copy.childLastmods?.[i] ?? null,
    lastmod: null,
    position: i + 1,
    line: 0,
  }));
}

/** A file whose earlier copy was reused: the copy's facts, the 304's validators when it sent new ones. */
export function reusedOutcome(
  copy: PreviousCopy,
  answer: { finalUrl: string | null; etag: string | null; lastModified: string | null },
  entries: number,
): FileOutcome {
  return {
    status: 'ok',
    kind: copy.kind,
    httpStatus: 304,
    finalUrl: answer.finalUrl,
    compressedBytes: copy.compressedBytes,
    uncompressedBytes: copy.uncompressedBytes,
    entries,
    partial: false,
    error: null,
    warnings: copy.warnings,
    etag: answer.etag ?? copy.etag,
    lastModified: answer.lastModified ?? copy.lastModified,
    contentType: copy.contentType,
    contentEncoding: copy.contentEncoding,
    ...(copy.gzipped === null ? {} : { gzipped: copy.gzipped }),
    ...(copy.hasBom === null ? {} : { hasBom: copy.hasBom }),
    reusedFrom: copy.fileId,
    rootTag: copy.rootTag ?? null,
  };
}
