// Reads the CSV entries of a zip as Search Console downloads it (or a user packs several exports into),
// from the file on disk, one entry at a time, bounded before anything is inflated: entry count, each
// entry's size, the total, and the compression ratio (zip bombs). Entry names are only labels.
import path from 'node:path';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { formatMiB } from './decode';
import { type GroupResult, type GscInputFile, groupGscFiles } from './group';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse';
import { GscFileError, type IgnoredFile } from './types';

export interface ZipLimits {
  /** Entries in the zip, folders and ignored files included (default 200; an export has 3–5). */
  maxEntries: number;
  /** Uncompressed bytes of all CSV entries together (default 50 MiB: about 15 s of reading). */
  maxTotalBytes: number;
  /** Uncompressed bytes of one entry (default: the parser's file cap, 10 MiB). */
  maxEntryBytes: number;
  /** Uncompressed:compressed ratio refused above, for entries over 1 MiB (default 100; CSV gives 5–20). */
  maxRatio: number;
}

const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 200,
  maxTotalBytes: 50 * 1024 * 1024,
  maxEntryBytes: DEFAULT_PARSE_LIMITS.maxBytes,
  maxRatio: 100,
};

/** Below this size a high ratio is harmless (a header-only CSV of zeros would trip it). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipContents {
  files: GscInputFile[];
  ignored: IgnoredFile[];
}

export async function readGscZip(
  filePath: string,
  zipName: string,
  limits: Partial<ZipLimits> = {},
): Promise<ZipContents> {
  const bounds = { ...DEFAULT_ZIP_LIMITS, ...limits };
  const refuse = (message: string) => new GscFileError(zipName, [{ line: null, message }]);
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(filePath, { lazyEntries: true, validateEntrySizes: true });
  } catch (error) {
    throw refuse(`not a readable zip file (${(error as Error).message})`);
  }
  if (zip.entryCount > bounds.maxEntries) {
    zip.close();
    throw refuse(`the zip has ${zip.entryCount} entries, more than the ${bounds.maxEntries} accepted`);
  }
  const files: GscInputFile[] = [];
  const ignored: IgnoredFile[] = [];
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      const skip = reasonToSkip(entry);
      if (skip === 'folder') continue;
      if (skip) {
        ignored.push({ name, reason: skip });
        continue;
      }
      const size = entry.uncompressedSize;
      if (size > bounds.maxEntryBytes) {
        throw refuse(
          `${name} is ${formatMiB(size)} uncompressed, more than the ${formatMiB(bounds.maxEntryBytes)} accepted`,
        );
      }
      total += size;
      if (total > bounds.maxTotalBytes) {
        throw refuse(
          `the CSV files add up to more than the ${formatMiB(bounds.maxTotalBytes)} accepted uncompressed`,
        );
      }
      const ratio = size / Math.max(entry.compressedSize, 1);
      if (size > RATIO_FLOOR_BYTES && ratio > bounds.maxRatio) {
        throw refuse(
          `${name} inflates ${Math.round(ratio)}:1 (to ${formatMiB(size)}), more than the ${bounds.maxRatio}:1 an export does; refused as a zip bomb`,
        );
      }
      files.push({ name, bytes: await readEntry(zip, entry) });
    }
  } catch (error) {
    zip.close();
    if (error instanceof GscFileError) throw error;
    // yauzl refuses "../" and absolute names, and checks each entry's real size against its header.
    throw refuse(`the zip cannot be read (${(error as Error).message})`);
  }
  return { files, ignored };
}

/**
 * A zip's Search Console exports, with its other files listed as ignored. A zip that cannot be read,
 * breaks a limit or holds no export comes back as one error named after the zip.
 */
export async function readGscZipExports(
  filePath: string,
  zipName: string,
  limits: { zip?: Partial<ZipLimits>; parse?: Partial<ParseLimits> } = {},
): Promise<GroupResult> {
  let contents: ZipContents;
  try {
    contents = await readGscZip(filePath, zipName, limits.zip);
  } catch (error) {
    if (error instanceof GscFileError) return { exports: [], ignored: [], errors: [error] };
    throw error;
  }
  const { files, ignored } = contents;
  if (files.length === 0) {
    const only = ignored.length > 0 ? ` (only ${ignored.map((f) => f.name).join(', ')})` : '';
    const error = new GscFileError(zipName, [{ line: null, message: `the zip holds no CSV file${only}` }]);
    return { exports: [], ignored, errors: [error] };
  }
  const grouped = groupGscFiles(files, { zipName, limits: limits.parse });
  return { ...grouped, ignored: [...ignored, ...grouped.ignored] };
}

function reasonToSkip(entry: Entry): string | 'folder' | null {
  const name = entry.fileName;
  if (name.endsWith('/')) return 'folder';
  const base = path.posix.basename(name);
  if (name.startsWith('__MACOSX/') || base.startsWith('._') || base === '.DS_Store') return 'macOS metadata';
  if (entry.isEncrypted()) return 'encrypted; not opened';
  if (/\.zip$/i.test(base)) return 'a zip inside the zip is not opened';
  if (!/\.(csv|tsv|txt)$/i.test(base)) return 'not a CSV file';
  return null;
}

async function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
