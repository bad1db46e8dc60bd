// Peeks at the start of an uploaded file to tell a sitemap index from a urlset, so uploaded indexes
// can be read first and claim the uploaded children they list.
import { buffer } from 'node:stream/consumers';
import { createGunzip } from 'node:zlib';
import { openStored, statStored } from '@/lib/storage/store';

const PEEK_BYTES = 64 * 1024;

async function gunzipPrefix(bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const gunzip = createGunzip();
    const finish = () => resolve(Buffer.concat(chunks).toString('utf8'));
    gunzip.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= PEEK_BYTES) {
        gunzip.removeAllListeners('data');
        gunzip.destroy();
        finish();
      }
    });
    // A prefix of a gzip stream always ends "unexpectedly": what was inflated so far is what we want.
    gunzip.on('error', finish);
    gunzip.on('end', finish);
    gunzip.end(bytes);
  });
}

/** False when the file cannot be read at all: reading it then fails as that file's error. */
export async function sniffUploadIsIndex(storedPath: string): Promise<boolean> {
  try {
    // A ranged read of the first bytes: a bucket sends those, not the file.
    const { bytes } = await statStored(storedPath);
    if (bytes === 0) return false;
    const head = await buffer(
      await openStored(storedPath, { start: 0, end: Math.min(bytes, PEEK_BYTES) - 1 }),
    );
    const text = head[0] === 0x1f && head[1] === 0x8b ? await gunzipPrefix(head) : head.toString('utf8');
    return /<(?:[A-Za-z_][\w.-]*:)?sitemapindex[\s>]/.test(text);
  } catch {
    return false;
  }
}
