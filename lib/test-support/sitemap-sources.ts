// Test support for the sitemap parser: byte sources with chosen chunk sizes, and a collector
// that keeps what was yielded before an error (as the ingest job does).

import { gzipSync } from 'node:zlib';
import { newParseStats, type ParseOptions, parseSitemapBatches } from '@/lib/sitemap/parse';
import type { ParseStats, SitemapEntry, SitemapParseError } from '@/lib/sitemap/types';
import { readFixture } from '@/lib/test-support/fixtures';

export async function* bytesSource(
  bytes: Uint8Array | string,
  chunkSize = 64 * 1024,
): AsyncGenerator<Uint8Array> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  for (let offset = 0; offset < data.length; offset += chunkSize) {
    yield data.subarray(offset, offset + chunkSize);
  }
}

export interface Collected {
  entries: SitemapEntry[];
  batches: number;
  stats: ParseStats;
  error: SitemapParseError | null;
}

export async function collect(
  bytes: Uint8Array | string,
  options: ParseOptions & { chunkSize?: number } = {},
): Promise<Collected> {
  const stats = newParseStats();
  const entries: SitemapEntry[] = [];
  let batches = 0;
  let error: SitemapParseError | null = null;
  try {
    for await (const batch of parseSitemapBatches(bytesSource(bytes, options.chunkSize), stats, options)) {
      batches++;
      entries.push(...batch);
    }
  } catch (err) {
    error = err as SitemapParseError;
  }
  return { entries, batches, stats, error };
}

export function collectFixture(
  relative: string,
  options: ParseOptions & { chunkSize?: number } = {},
): Promise<Collected> {
  return collect(readFixture(relative), options);
}

export function locs(collected: Collected): string[] {
  return collected.entries.map((entry) => entry.loc);
}

export function warningCodes(collected: Collected): string[] {
  return collected.stats.warnings.map((warning) => warning.code);
}

export function gzip(text: string | Uint8Array): Uint8Array {
  return gzipSync(typeof text === 'string' ? Buffer.from(text) : text);
}

/** A minimal urlset around `body`; `count` generated <url> entries when body is a number. */
export function urlset(body: string | number): string {
  const inner =
    typeof body === 'number'
      ? Array.from({ length: body }, (_, i) => `<url><loc>https://example.com/p/${i + 1}</loc></url>`).join(
          '\n',
        )
      : body;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${inner}\n</urlset>\n`;
}
