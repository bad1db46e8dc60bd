// Where the CLI may read on disk: the sitemap files of a folder (walked without following symbolic links,
// stopped at the file cap) and the local file a child of a local index maps to. A sitemap names its
// children with URLs written by whoever wrote the file, so a child is only ever mapped to a regular file
// inside the folder the walk started from; anything else is refused with the reason, never opened.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { schemeOf } from '@/lib/sitemap/loc-checks';

const SITEMAP_FILE = /\.(xml|txt|gz|rss|atom)$/i;
/** A URL path of more segments than this is not looked up segment by segment (only its last ones). */
const MAX_SEGMENTS = 16;

export interface Skipped {
  path: string;
  reason: string;
}

export interface FolderListing {
  /** Sitemap files found, sorted by their path below the folder. */
  files: string[];
  skipped: Skipped[];
  /** True when the walk stopped at `maxFiles`: files further on were not even listed. */
  capped: boolean;
}

/**
 * The sitemap files below `root`, depth first. Entries are judged by `lstat` (the directory entry's own
 * type): a symbolic link is reported as skipped and never followed, so a link to `.` cannot make the
 * walk endless. The walk stops as soon as `maxFiles` files are listed.
 */
export function listSitemapFiles(root: string, maxFiles: number): FolderListing {
  const found: { file: string; rel: string }[] = [];
  const skipped: Skipped[] = [];
  const pending: string[] = [root];
  let capped = false;
  walk: while (pending.length > 0) {
    const dir = pending.pop() as string;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      skipped.push({ path: dir, reason: `cannot list the folder (${(err as NodeJS.ErrnoException).code})` });
      continue;
    }
    const subfolders: string[] = [];
    for (const name of names) {
      const full = path.join(dir, name);
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(full);
      } catch {
        continue; // removed while walking
      }
      if (stat.isSymbolicLink()) skipped.push({ path: full, reason: 'a symbolic link: not followed' });
      else if (stat.isDirectory()) subfolders.push(full);
      else if (stat.isFile() && SITEMAP_FILE.test(name)) {
        if (found.length >= maxFiles) {
          capped = true;
          break walk;
        }
        found.push({ file: full, rel: path.relative(root, full) });
      }
    }
    // Reversed onto the stack, so that folders are entered in name order.
    for (const sub of subfolders.reverse()) pending.push(sub);
  }
  // The order the files are read in (the first absolute location decides an inferred site): by path.
  found.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files: found.map((f) => f.file), skipped, capped };
}

export type ChildPlace =
  | { kind: 'file'; path: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'missing' };

const WINDOWS_DRIVE = /^[a-z]:[\\/]/i;

/** Why a child's location, as written, may not name a local file; null when it may. */
function refuseLoc(loc: string): string | null {
  const trimmed = loc.trim();
  // "/x" and "\\x" (a Windows share too); "//host/x" is a URL without its scheme.
  if (WINDOWS_DRIVE.test(trimmed) || /^\\|^\/(?![/\\])/.test(trimmed))
    return 'an absolute path (no scheme and host): not read as a local file; write the child as a full http(s) URL';
  const scheme = schemeOf(trimmed);
  if (scheme !== null && scheme !== 'http' && scheme !== 'https')
    return `a ${scheme}: location: only http(s) URLs are mapped to files of the index’s folder`;
  // The path as written (new URL would already have removed a "..": refused here before it can).
  for (const segment of (trimmed.split(/[?#]/)[0] ?? '').split(/[/\\]/)) {
    if (decodeSegment(segment) === '..') return 'a ".." segment would leave the index’s folder';
  }
  return null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed percent sequence: the file may be named as written
  }
}

/** The URL path's segments, decoded; a reason instead when one of them could name another folder. */
function pathSegments(url: string): string[] | string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return [];
  }
  const segments: string[] = [];
  for (const raw of pathname.split('/').slice(1)) {
    if (/%(2f|5c)/i.test(raw)) return 'an encoded separator (%2F or %5C) in the path';
    const name = decodeSegment(raw);
    if (name === '..' || name === '.') return 'a ".." segment would leave the index’s folder';
    if (name.includes('\0') || name.includes('\\')) return 'a NUL or backslash in the path';
    segments.push(name);
  }
  return segments;
}

function isInside(real: string, rootReal: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

/**
 * The local file a child of the index in `indexDir` maps to: the longest tail of the child URL's path
 * that names a regular file below `indexDir` (`https://example.com/sitemaps/a.xml` is `sitemaps/a.xml`
 * there, else `a.xml` beside the index). Its real path must stay inside `rootReal` (the real path of the
 * folder the walk started from), so a symbolic link cannot lead outside.
 */
export function localChildPlace(
  child: { loc: string; url: string | null },
  indexDir: string,
  rootReal: string,
): ChildPlace {
  const refused = refuseLoc(child.loc);
  if (refused) return { kind: 'refused', reason: refused };
  if (child.url === null) return { kind: 'missing' };
  const segments = pathSegments(child.url);
  if (typeof segments === 'string') return { kind: 'refused', reason: segments };
  if (segments.length === 0 || segments.at(-1) === '') return { kind: 'missing' };
  const tail = segments.slice(-MAX_SEGMENTS);
  for (let start = 0; start < tail.length; start++) {
    const candidate = path.join(indexDir, ...tail.slice(start));
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue; // no such file (or a dangling link)
    }
    if (!isInside(real, rootReal))
      return { kind: 'refused', reason: 'a symbolic link that leads outside the index’s folder' };
    if (statSync(real).isFile()) return { kind: 'file', path: candidate };
  }
  return { kind: 'missing' };
}
