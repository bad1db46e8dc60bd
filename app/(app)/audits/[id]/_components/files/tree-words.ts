// A sitemap file's row in words: its sizes, and where its parser stopped.

import type { SitemapFileDto } from '@/lib/audits/schema';
import { formatBytes } from '@/lib/core/format';

export function sizeText(file: SitemapFileDto): { text: string; title?: string } | null {
  const { compressedBytes: packed, uncompressedBytes: raw } = file;
  if (packed !== null && raw !== null && packed !== raw) {
    return {
      text: `${formatBytes(packed)} → ${formatBytes(raw)}`,
      title: `${formatBytes(packed)} compressed, ${formatBytes(raw)} uncompressed`,
    };
  }
  const size = raw ?? packed;
  return size === null ? null : { text: formatBytes(size) };
}

/** The parser's position, unless its message already says it. */
export function position(error: NonNullable<SitemapFileDto['error']>): string {
  if (error.line === null || error.message.includes(`line ${error.line}`)) return '';
  return error.column === null ? ` (line ${error.line})` : ` (line ${error.line}, column ${error.column})`;
}
