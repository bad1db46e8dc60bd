// Reads a whole zip answered by a route (the corrected sitemap set) into memory, entry name to bytes:
// tests only, on sets small enough to hold.
import yauzl from 'yauzl';

export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  const files = new Map<string, Buffer>();
  for await (const e of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(e)) chunks.push(chunk as Buffer);
    files.set(e.fileName, Buffer.concat(chunks));
  }
  return files;
}
