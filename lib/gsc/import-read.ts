// An import's stored uploads → the exports they hold, handed over one at a time: loose CSV files grouped
// together (as one set the user chose), then each zip folder by folder (lib/gsc/zip.ts). Every byte read
// or inflated counts into the import's budget (GSC_IMPORT_MAX_BYTES), and reading stops at the first
// refusal for size. Runs in the request (to vet) and in the import's step on the worker (to store).
import { buffer } from 'node:stream/consumers';
import { budgetBytesFromEnv, InflateBudget, InflateBudgetError } from '@/lib/inflate/budget';
import { openStored, statStored, withLocalFile } from '@/lib/storage/store';
import { groupGscFiles } from './group';
import type { StoredUpload } from './import-schema';
import { type GscExport, GscFileError, type IgnoredFile } from './types';
import { visitGscZip } from './zip';

/** Uncompressed bytes one import may read, all its files together: 200 MiB is thousands of exports
 * (a real one is 3–7 files of a few KB) and about 20 s of reading. */
export const DEFAULT_IMPORT_MAX_BYTES = 200 * 1024 * 1024;

export function importBudget(): InflateBudget {
  return new InflateBudget({
    limit: budgetBytesFromEnv('GSC_IMPORT_MAX_BYTES', DEFAULT_IMPORT_MAX_BYTES),
    setting: 'GSC_IMPORT_MAX_BYTES',
    scope: 'one Search Console import',
  });
}

export interface ImportReadOptions {
  budget: InflateBudget;
  /** Each export as soon as it is read, awaited before the next one is: store it, then let it go. */
  onExport: (exp: GscExport) => Promise<void>;
  onFile?: (done: number) => void;
}

export interface ImportReadResult {
  /** Exports handed to onExport. */
  exports: number;
  ignored: IgnoredFile[];
  /** Files that could not be read or placed; the caller refuses the import when there is any. */
  errors: GscFileError[];
  /** One of `errors` is a refusal for size: the request answers 413, the import fails for good. */
  isOverBudget: boolean;
}

/** A zip is told by its first bytes (a local file header), or its name when it is too short for them. */
async function isZip(upload: StoredUpload): Promise<boolean> {
  // A ranged read: a bucket sends the 4 bytes, not the file (an empty object has no range to ask for).
  const { bytes } = await statStored(upload.storedPath);
  const head =
    bytes < 4 ? Buffer.alloc(0) : await buffer(await openStored(upload.storedPath, { start: 0, end: 3 }));
  if (head.length === 4) return head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50;
  return /\.zip$/i.test(upload.name);
}

export async function readImportUploads(
  uploads: readonly StoredUpload[],
  options: ImportReadOptions,
): Promise<ImportReadResult> {
  const { budget, onExport, onFile = () => {} } = options;
  const result: ImportReadResult = { exports: 0, ignored: [], errors: [], isOverBudget: false };
  const zips: StoredUpload[] = [];
  const loose: StoredUpload[] = [];
  for (const upload of uploads) ((await isZip(upload)) ? zips : loose).push(upload);
  let done = 0;
  // Loose files pair across uploads (a Table.csv with its Metadata.csv), so they are grouped together;
  // the request caps them at 100 MiB on disk, and each at the parser's 10 MiB.
  if (loose.length > 0) {
    const files: { name: string; bytes: Uint8Array }[] = [];
    for (const upload of loose) {
      try {
        budget.ensureRoom(upload.name, upload.bytes);
        const bytes = await buffer(await openStored(upload.storedPath));
        budget.count(upload.name, bytes.length);
        files.push({ name: upload.name, bytes });
      } catch (error) {
        if (!(error instanceof InflateBudgetError)) throw error;
        result.errors.push(
          new GscFileError(upload.name, [{ line: null, message: error.reason }], false, true),
        );
        result.isOverBudget = true;
        return result;
      }
      onFile(++done);
    }
    const grouped = groupGscFiles(files);
    files.length = 0;
    result.ignored.push(...grouped.ignored);
    result.errors.push(...grouped.errors);
    for (const exp of grouped.exports) {
      result.exports++;
      await onExport(exp);
    }
  }
  for (const upload of zips) {
    // A zip is read by seeking to its central directory: from a bucket it is copied to a temporary file
    // first (at most IMPORT_LIMITS.maxZipBytes, 50 MiB).
    const read = await withLocalFile(upload.storedPath, (file) =>
      visitGscZip(file, upload.name, {
        budget,
        visit: async (exp) => {
          result.exports++;
          await onExport(exp);
        },
      }),
    );
    result.ignored.push(...read.ignored);
    result.errors.push(...read.errors);
    onFile(++done);
    // The budget is spent or a zip is a bomb: nothing more is read, the import is refused as it stands.
    if (read.errors.some((e) => e.isOverBudget)) {
      result.isOverBudget = true;
      return result;
    }
  }
  return result;
}
