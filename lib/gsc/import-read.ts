// An import's uploads on disk → the exports they hold: loose CSV files grouped together (as one set the
// user chose), each zip on its own (lib/gsc/zip.ts). Runs in the import's step on the worker: reading is
// synchronous CPU work (about 10 µs a row) that must not hold a web request.
import { open, readFile } from 'node:fs/promises';
import { type GroupResult, groupGscFiles } from './group';
import type { StoredUpload } from './import-schema';
import { readGscZipExports } from './zip';

/** A zip is told by its first bytes (a local file header), or its name when it is too short for them. */
async function isZip(upload: StoredUpload): Promise<boolean> {
  const handle = await open(upload.storedPath, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    if (bytesRead === 4) return head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50;
    return /\.zip$/i.test(upload.name);
  } finally {
    await handle.close();
  }
}

export async function readImportUploads(
  uploads: readonly StoredUpload[],
  onFile: (done: number) => void = () => {},
): Promise<GroupResult> {
  const loose: { name: string; bytes: Uint8Array }[] = [];
  const results: GroupResult[] = [];
  let done = 0;
  for (const upload of uploads) {
    if (await isZip(upload)) results.push(await readGscZipExports(upload.storedPath, upload.name));
    else loose.push({ name: upload.name, bytes: await readFile(upload.storedPath) });
    onFile(++done);
  }
  if (loose.length > 0) results.unshift(groupGscFiles(loose));
  return {
    exports: results.flatMap((r) => r.exports),
    ignored: results.flatMap((r) => r.ignored),
    errors: results.flatMap((r) => r.errors),
  };
}
