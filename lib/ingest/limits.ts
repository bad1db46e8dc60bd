// The ingest's limits: those lib/db/config.ts reads (depth, files, entries, bytes, fetch timeout) and
// the bounds on cost per input (location length, XML nesting, fetch concurrency
// and the per-audit fetch budget) and the audit's budget of inflated bytes. Read from the environment at
// call time; bad values throw.
import { type IngestLimits, ingestLimits, intEnv } from '@/lib/db/config';
import {
  DEFAULT_MAX_LOC_CHARS,
  DEFAULT_MAX_XML_DEPTH,
  MAX_LOC_CHARS_CEILING,
} from '@/lib/sitemap/loc-checks';

export interface WalkLimits extends IngestLimits {
  /** SITEMAP_MAX_LOC_CHARS: longest accepted location (also crawl-export URL cells). */
  maxLocChars: number;
  /** Deepest XML nesting accepted (100). */
  maxXmlDepth: number;
  /** SITEMAP_FETCH_CONCURRENCY: files fetched at once per audit. */
  fetchConcurrency: number;
  /** SITEMAP_FETCH_PER_HOST: of those, at most this many from one host. */
  fetchPerHost: number;
  /** SITEMAP_AUDIT_FETCH_MS: time an audit may spend fetching its sitemap tree. */
  auditFetchMs: number;
  /** SITEMAP_AUDIT_FETCH_BYTES: bytes (after Content-Encoding) an audit may fetch. */
  auditFetchBytes: number;
  /** SITEMAP_AUDIT_INFLATED_BYTES: uncompressed bytes all the audit's sitemap files (uploaded or
   * fetched, gzip inflated) may add up to. */
  auditInflatedBytes: number;
}

function between(name: string, value: number, min: number, max: number): number {
  if (value < min || value > max) {
    throw new Error(`${name} must be between ${min} and ${max.toLocaleString('en-US')}, got ${value}`);
  }
  return value;
}

export function walkLimits(): WalkLimits {
  return {
    ...ingestLimits(),
    maxLocChars: between(
      'SITEMAP_MAX_LOC_CHARS',
      intEnv('SITEMAP_MAX_LOC_CHARS', DEFAULT_MAX_LOC_CHARS),
      16,
      MAX_LOC_CHARS_CEILING,
    ),
    maxXmlDepth: DEFAULT_MAX_XML_DEPTH,
    fetchConcurrency: between('SITEMAP_FETCH_CONCURRENCY', intEnv('SITEMAP_FETCH_CONCURRENCY', 8), 1, 64),
    fetchPerHost: between('SITEMAP_FETCH_PER_HOST', intEnv('SITEMAP_FETCH_PER_HOST', 4), 1, 64),
    auditFetchMs: between(
      'SITEMAP_AUDIT_FETCH_MS',
      intEnv('SITEMAP_AUDIT_FETCH_MS', 15 * 60_000),
      1,
      2 ** 31 - 1,
    ),
    auditFetchBytes: between(
      'SITEMAP_AUDIT_FETCH_BYTES',
      intEnv('SITEMAP_AUDIT_FETCH_BYTES', 2 * 1024 ** 3),
      1,
      Number.MAX_SAFE_INTEGER,
    ),
    // 5,000,000 entries (SITEMAP_MAX_ENTRIES) of about 150 bytes of XML each are 750 MB.
    auditInflatedBytes: between(
      'SITEMAP_AUDIT_INFLATED_BYTES',
      intEnv('SITEMAP_AUDIT_INFLATED_BYTES', 2 * 1024 ** 3),
      1,
      Number.MAX_SAFE_INTEGER,
    ),
  };
}
