// Reads the CSV entries of a zip as Search Console downloads it (or a user packs several exports into),
// from the file on disk, one folder at a time: each folder's exports go to the caller before the next
// folder is inflated, so memory holds one export, not the zip. Bounded before anything is inflated (entry
// count, each entry's declared size, the whole zip's compression ratio, the import's budget) and again by
// the bytes actually inflated, which are counted into the import's budget: a directory's sizes may lie.
import path from 'node:path';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { InflateBudget, InflateBudgetError } from '@/lib/inflate/budget';
import { formatMiB } from './decode';
import { type GroupResult, type GscInputFile, groupGscFiles } from './group';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parse';
import { type GscExport, GscFileError, type IgnoredFile } from './types';

export interface ZipLimits {
  /** Entries in the zip, folders and ignored files included (default 200; an export has 3–5). */
  maxEntries: number;
  /** Uncompressed bytes of one entry (default: the parser's file cap, 10 MiB). */
  maxEntryBytes: number;
  /** Uncompressed bytes of the CSV entries of one folder, which are read together (default 50 MiB; an
   * export is 3–5 files of a few KB, and each export of a zip usually has a folder of its own). */
  maxFolderBytes: number;
  /** Uncompressed:compressed ratio refused above, for one entry and for the zip as a whole, once they
   * are over 1 MiB (default 100; Search Console's CSV gives 5–20). */
  maxRatio: number;
}

const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 200,
  maxEntryBytes: DEFAULT_PARSE_LIMITS.maxBytes,
  maxFolderBytes: 50 * 1024 * 1024,
  maxRatio: 100,
};

/** Below this size a high ratio is harmless (a header-only CSV of zeros would trip it). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipReadOptions {
  /** The import's budget of inflated bytes, shared by all its files. */
  budget: InflateBudget;
  /** Called with each export as soon as its folder is read; awaited before the next folder inflates. */
  visit: (exp: GscExport) => Promise<void>;
  limits?: { zip?: Partial<ZipLimits>; parse?: Partial<ParseLimits> };
}

export interface ZipReadResult {
  exports: number;
  ignored: IgnoredFile[];
  errors: GscFileError[];
}

/** A refusal for inflating too much: the request answers it with 413, the import fails without retry. */
function overBudget(zipName: string, message: string): GscFileError {
  return new GscFileError(zipName, [{ line: null, message }], false, true);
}

/** What the caller's visit threw (the database, a cancelled run): passed on as it is, never taken for
 * a zip that cannot be read. */
class VisitFailure {
  constructor(readonly cause: unknown) {}
}

function folderOf(name: string): string {
  const dir = path.posix.dirname(name.replace(/\\/g, '/'));
  return dir === '.' ? '' : dir;
}

function ratioText(inflated: number, compressed: number): string {
  return `${Math.round(inflated / Math.max(compressed, 1))}:1`;
}

/**
 * A zip's Search Console exports, handed to `visit` folder by folder, with its other files listed as
 * ignored. A zip that cannot be read, breaks a limit or holds no export comes back as one error named
 * after the zip; one over the budget or the ratio has `isOverBudget` set.
 */
export async function visitGscZip(
  filePath: string,
  zipName: string,
  options: ZipReadOptions,
): Promise<ZipReadResult> {
  const bounds = { ...DEFAULT_ZIP_LIMITS, ...options.limits?.zip };
  const refuse = (message: string) => new GscFileError(zipName, [{ line: null, message }]);
  const fail = (error: GscFileError, ignored: IgnoredFile[] = []): ZipReadResult => ({
    exports: 0,
    ignored,
    errors: [error],
  });
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(filePath, {
      lazyEntries: true,
      autoClose: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    return fail(refuse(`not a readable zip file (${(error as Error).message})`));
  }
  try {
    if (zip.entryCount > bounds.maxEntries) {
      return fail(
        refuse(`the zip has ${zip.entryCount} entries, more than the ${bounds.maxEntries} accepted`),
      );
    }
    // The directory first: nothing is inflated until the zip as a whole passes.
    const ignored: IgnoredFile[] = [];
    const folders = new Map<string, Entry[]>();
    let declared = 0;
    let compressed = 0;
    let csvDeclared = 0;
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      const skip = reasonToSkip(entry);
      if (skip === 'folder') continue;
      declared += entry.uncompressedSize;
      compressed += entry.compressedSize;
      if (skip) {
        ignored.push({ name, reason: skip });
        continue;
      }
      const size = entry.uncompressedSize;
      if (size > bounds.maxEntryBytes) {
        return fail(
          refuse(
            `${name} is ${formatMiB(size)} uncompressed, more than the ${formatMiB(bounds.maxEntryBytes)} accepted`,
          ),
        );
      }
      if (size > RATIO_FLOOR_BYTES && size / Math.max(entry.compressedSize, 1) > bounds.maxRatio) {
        return fail(
          overBudget(
            zipName,
            `${name} inflates ${ratioText(size, entry.compressedSize)} (to ${formatMiB(size)}), more than the ${bounds.maxRatio}:1 an export does; refused as a zip bomb`,
          ),
        );
      }
      csvDeclared += size;
      const folder = folderOf(name);
      folders.set(folder, [...(folders.get(folder) ?? []), entry]);
    }
    // Many small entries just under the per-entry floor add up: the zip is judged as a whole too.
    if (declared > RATIO_FLOOR_BYTES && declared / Math.max(compressed, 1) > bounds.maxRatio) {
      return fail(
        overBudget(
          zipName,
          `the zip inflates ${ratioText(declared, compressed)} as a whole (${formatMiB(compressed)} to ${formatMiB(declared)}), more than the ${bounds.maxRatio}:1 Search Console's exports do; refused as a zip bomb`,
        ),
      );
    }
    options.budget.ensureRoom(zipName, csvDeclared);
    for (const [folder, entries] of folders) {
      const size = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
      if (size > bounds.maxFolderBytes) {
        return fail(
          overBudget(
            zipName,
            `the folder ${folder === '' ? '(top level)' : `${folder}/`} holds ${formatMiB(size)} of CSV files, more than the ${formatMiB(bounds.maxFolderBytes)} one folder may (its files are read together): give each export a folder of its own`,
          ),
        );
      }
    }
    if (folders.size === 0) {
      const only = ignored.length > 0 ? ` (only ${ignored.map((f) => f.name).join(', ')})` : '';
      return fail(refuse(`the zip holds no CSV file${only}`), ignored);
    }
    const result: ZipReadResult = { exports: 0, ignored, errors: [] };
    for (const folder of [...folders.keys()].sort((a, b) => a.localeCompare(b))) {
      const files: GscInputFile[] = [];
      for (const entry of folders.get(folder) ?? []) {
        files.push({
          name: entry.fileName,
          bytes: await readEntry(zip, entry, zipName, options.budget, bounds),
        });
      }
      const grouped = groupGscFiles(files, { zipName, limits: options.limits?.parse, isPartOfZip: true });
      result.ignored.push(...grouped.ignored);
      result.errors.push(...grouped.errors);
      for (const exp of grouped.exports) {
        result.exports++;
        await options.visit(exp).catch((cause: unknown) => {
          throw new VisitFailure(cause);
        });
      }
    }
    if (result.exports === 0 && result.errors.length === 0) {
      result.errors.push(
        refuse(
          `the zip holds no Search Console export (${result.ignored.map((f) => `${f.name}: ${f.reason}`).join('; ')})`,
        ),
      );
    }
    return result;
  } catch (error) {
    if (error instanceof VisitFailure) throw error.cause;
    if (error instanceof GscFileError) return fail(error);
    if (error instanceof InflateBudgetError) return fail(overBudget(zipName, `the zip ${error.reason}`));
    // yauzl refuses "../" and absolute names, and checks each entry's real size against its header.
    if (error instanceof Error && !(error instanceof TypeError) && !(error instanceof RangeError)) {
      return fail(refuse(`the zip cannot be read (${error.message})`));
    }
    throw error;
  } finally {
    zip.close();
  }
}

/** A zip's exports collected in memory: for tests and small zips only (the import visits them). */
export async function readGscZipExports(
  filePath: string,
  zipName: string,
  limits: ZipReadOptions['limits'] = {},
  budget = new InflateBudget({ limit: Number.MAX_SAFE_INTEGER, setting: 'none', scope: 'a test' }),
): Promise<GroupResult> {
  const exports: GscExport[] = [];
  const read = await visitGscZip(filePath, zipName, {
    budget,
    limits,
    visit: async (exp) => {
      exports.push(exp);
    },
  });
  return { exports, ignored: read.ignored, errors: read.errors };
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

/** One entry, its inflated bytes counted as they come: the entry's cap, its real ratio, the budget. */
async function readEntry(
  zip: ZipFile,
  entry: Entry,
  zipName: string,
  budget: InflateBudget,
  bounds: ZipLimits,
): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > bounds.maxEntryBytes) {
        throw new GscFileError(zipName, [
          {
            line: null,
            message: `${entry.fileName} inflates past the ${formatMiB(bounds.maxEntryBytes)} accepted`,
          },
        ]);
      }
      if (size > RATIO_FLOOR_BYTES && size / Math.max(entry.compressedSize, 1) > bounds.maxRatio) {
        throw overBudget(
          zipName,
          `${entry.fileName} inflates more than ${bounds.maxRatio}:1 (${formatMiB(size)} so far); refused as a zip bomb`,
        );
      }
      budget.count(entry.fileName, chunk.length);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof InflateBudgetError) throw overBudget(zipName, error.message);
    throw error;
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, size);
}
