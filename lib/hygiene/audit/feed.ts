// Turns an audit's stored sitemap rows back into what lib/hygiene's engine is fed by a walk: each file's
// metadata, its entries, the reader's stats and the robots.txt rules the audit read. What the ingest did
// not store cannot be judged here: entry line numbers and the locations of an index's children as written
// (they are stored resolved); and, for audits ingested before the serving facts were stored (NULL
// columns), a file's Content-Type, Content-Encoding, gzip bytes and BOM, and robots.txt's rules
// (notJudged lists what is unknown for the audit).
import robotsParser from 'robots-parser';
import type { RobotsRules } from '@/lib/hygiene/engine';
import type { FileMeta } from '@/lib/hygiene/types';
import type {
  ParseStats,
  SitemapChildEntry,
  SitemapKind,
  SitemapUrlEntry,
  SitemapWarning,
} from '@/lib/sitemap/types';

/** Rules that need facts an older audit's rows lack, shown with the results so their absence is not read
 * as clean. */
type FactRule = 'robots_disallowed' | 'content_type_not_xml' | 'gzip_mismatch' | 'bom';

export interface StoredFile {
  id: number;
  parentId: number | null;
  url: string | null;
  uploadName: string | null;
  kind: string | null;
  status: string;
  finalUrl: string | null;
  uncompressedBytes: number | null;
  compressedBytes: number | null;
  entries: number;
  errorMessage: string | null;
  errorLine: number | null;
  warnings: SitemapWarning[];
  httpStatus: number | null;
  /** NULL on rows of audits ingested before these were stored (gzipped is set on every file read since). */
  contentType: string | null;
  contentEncoding: string | null;
  gzipped: boolean | null;
  hasBom: boolean | null;
  robotsTxt: string | null;
  /** A child read from an upload: the <loc> its uploaded index gave it (NULL otherwise, or before stored). */
  indexLoc: string | null;
}

/** A stored sitemap_entries row: the reader's entry as ingested (no line: entry lines are not stored). */
export type StoredEntry = Omit<SitemapUrlEntry, 'type' | 'line'> & { fileId: number };

const KINDS: readonly string[] = ['urlset', 'index', 'text', 'rss', 'atom'];

/** Whether a stored file is a sitemap the lint judges: robots.txt rows and skipped guesses are not. */
export function isLinted(file: StoredFile): boolean {
  return file.kind !== 'robots' && file.status !== 'skipped' && file.status !== 'pending';
}

/** How a file is named in examples and in the dirt ranking. */
export function fileLabel(file: StoredFile): string {
  return file.finalUrl ?? file.url ?? file.uploadName ?? `file ${file.id}`;
}

/** `siteUrl`: what an uploaded file's relative locations resolve against (given; null: the engine infers
 * it). An upload read as an uploaded index's child resolves against the URL the index gave it, as the CLI
 * reads a local child. */
export function fileMeta(file: StoredFile, siteUrl: string | null): FileMeta {
  const fetched = file.url !== null;
  const named = file.indexLoc !== null && /^https?:\/\/[^/]/i.test(file.indexLoc) ? file.indexLoc : null;
  return {
    label: fileLabel(file),
    requestedUrl: file.url,
    finalUrl: file.finalUrl,
    base: fetched ? (file.finalUrl ?? file.url) : (named ?? siteUrl),
    contentType: file.contentType,
    contentEncoding: file.contentEncoding,
    name: file.uploadName ?? pathOf(file.url) ?? '',
    bom: file.hasBom ?? false,
  };
}

function pathOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The reader's stats as stored. gzip unknown (an older audit): taken to match the name, so gzip_mismatch
 * stays quiet. */
export function fileStats(file: StoredFile, meta: FileMeta): ParseStats {
  return {
    compressedBytes: file.compressedBytes ?? 0,
    uncompressedBytes: file.uncompressedBytes ?? 0,
    kind: file.kind !== null && KINDS.includes(file.kind) ? (file.kind as SitemapKind) : null,
    gzip: file.gzipped ?? /\.gz$/i.test(meta.name),
    bom: meta.bom,
    entries: file.entries,
    warnings: file.warnings,
  };
}

export function fileError(file: StoredFile): { message: string; line?: number } | null {
  if (file.status !== 'failed') return null;
  const message = file.errorMessage ?? 'The file could not be read';
  return file.errorLine === null ? { message } : { message, line: file.errorLine };
}

/** The robots.txt rules of every robots.txt the audit read, each applied to its own origin (robots-parser
 * answers undefined for another origin's URL); null when the audit read none (or an older audit). */
export function storedRobots(files: readonly StoredFile[]): RobotsRules | null {
  const parsers = files
    .filter((f) => f.kind === 'robots' && f.robotsTxt !== null && f.url !== null)
    .map((f) => robotsParser(f.finalUrl ?? (f.url as string), f.robotsTxt as string));
  if (parsers.length === 0) return null;
  return {
    isAllowed(url, userAgent) {
      for (const parser of parsers) {
        const allowed = parser.isAllowed(url, userAgent);
        if (allowed !== undefined) return allowed;
      }
      return undefined;
    },
  };
}

/** The rules whose facts the audit's rows lack. Serving facts: unknown when a file that was read carries
 * none (its row predates them). robots.txt: known when one was stored, or answered 404 (no rules: all
 * allowed, as Google reads it). */
export function notJudged(files: readonly StoredFile[]): FactRule[] {
  const unknown: FactRule[] = [];
  const robotsKnown = files.some(
    (f) => f.kind === 'robots' && (f.robotsTxt !== null || f.httpStatus === 404),
  );
  if (!robotsKnown) unknown.push('robots_disallowed');
  const read = files.filter((f) => isLinted(f) && f.kind !== null);
  if (read.some((f) => f.gzipped === null)) unknown.push('content_type_not_xml', 'gzip_mismatch', 'bom');
  return unknown;
}

/** A stored entry as the reader yielded it; its line is not stored (0: examples carry no line). */
export function toUrlEntry(row: StoredEntry): SitemapUrlEntry {
  return {
    type: 'url',
    loc: row.loc,
    lastmodRaw: row.lastmodRaw,
    lastmod: row.lastmod,
    changefreq: row.changefreq,
    priority: row.priority,
    images: row.images,
    videos: row.videos,
    news: row.news,
    alternates: row.alternates,
    position: row.position,
    line: 0,
  };
}

/** An index's children, from their own file rows: a fetched child's URL as resolved by the walk, an
 * uploaded child's <loc> as its index wrote it. A child whose location is not stored (an older audit's
 * upload) is left out: judging an empty location would report it relative. */
export function toChildEntries(children: readonly StoredFile[]): SitemapChildEntry[] {
  return children.flatMap((child, position) => {
    const loc = child.url ?? child.indexLoc;
    return loc === null ? [] : [{ type: 'sitemap', loc, lastmodRaw: null, lastmod: null, position, line: 0 }];
  });
}

/** Share of a file's entries on the prune list above which it is flagged. */
export const DIRT_FLAG = 0.01;

export interface FileDirt {
  fileId: number;
  url: string;
  entries: number;
  pruned: number;
  dirt: number;
  flagged: boolean;
}

/** Per-file dirt, dirtiest first (then the most pruned, then file order). */
export function rankDirt(
  rows: readonly { fileId: number; url: string; entries: number; pruned: number }[],
): FileDirt[] {
  return rows
    .map((r) => {
      const dirt = r.entries > 0 ? r.pruned / r.entries : 0;
      return { ...r, dirt, flagged: dirt > DIRT_FLAG };
    })
    .sort((a, b) => b.dirt - a.dirt || b.pruned - a.pruned || a.fileId - b.fileId);
}
