// Messages between the ingest job and its crawl thread (lib/ingest/crawl-thread.ts).
import type { ColumnMap } from '@/lib/crawl/columns';
import {
  type CrawlFormat,
  CrawlImportError,
  type CrawlImportErrorCode,
  type CrawlReport,
} from '@/lib/crawl/types';
import { NetError, type NetErrorCode } from '@/lib/net/types';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import type { LoadFacts } from './copy-lines';

export interface CrawlThreadInput {
  profile: NormalizationProfile;
  /** An upload's store key (or older rows' absolute path), or a URL fetched through the safe fetcher. */
  source: { url: string | null; storedPath: string | null };
  read: {
    format?: CrawlFormat;
    columnMap?: ColumnMap;
    fileName: string;
    maxUrlChars?: number;
    /** Uncompressed bytes the export may inflate to (CRAWL_MAX_INFLATED_BYTES). */
    maxBytes?: number;
  };
  /** Download cap for a URL source. */
  maxBytes: number;
}

/** Encoded COPY lines and the running counts (for progress). */
export interface CrawlChunk {
  type: 'chunk';
  text: string;
  written: number;
  rows: number;
  rejected: number;
}

export type SerializedError =
  | { kind: 'crawl'; code: CrawlImportErrorCode; message: string }
  | { kind: 'net'; code: NetErrorCode; url: string; message: string; status?: number }
  | { kind: 'other'; message: string; stack?: string };

export type FromCrawlThread =
  | CrawlChunk
  | { type: 'done'; report: CrawlReport; facts: LoadFacts }
  | { type: 'failed'; error: SerializedError; report: CrawlReport | null };

/** The main thread acknowledges each chunk once written; the thread keeps at most this many unacknowledged. */
export const MAX_CHUNKS_IN_FLIGHT = 4;

export function serializeError(error: unknown): SerializedError {
  if (error instanceof CrawlImportError) return { kind: 'crawl', code: error.code, message: error.message };
  if (error instanceof NetError) {
    return {
      kind: 'net',
      code: error.code,
      url: error.url,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: 'other', message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
}

export function reviveError(error: SerializedError): Error {
  if (error.kind === 'crawl') return new CrawlImportError(error.code, error.message);
  if (error.kind === 'net') {
    return new NetError(
      error.code,
      error.url,
      error.message,
      error.status === undefined ? {} : { status: error.status },
    );
  }
  const revived = new Error(error.message);
  if (error.stack) revived.stack = error.stack;
  return revived;
}
