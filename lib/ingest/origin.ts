// Where one file of the tree comes from (a URL to fetch or an uploaded file), how it is identified to
// spot repeats and cycles, how it is named in messages, and how an index's child entry resolves to one.
import type { UploadSource } from './tree-types';

export type Origin = { type: 'url'; url: string } | { type: 'upload'; upload: UploadSource };

/** The same URL with a different #fragment is the same file. */
export function identity(origin: Origin): string {
  if (origin.type === 'upload') return `upload:${origin.upload.storedPath}`;
  try {
    const u = new URL(origin.url);
    u.hash = '';
    return u.href;
  } catch {
    return origin.url;
  }
}

export function label(origin: Origin): string {
  return origin.type === 'url' ? origin.url : origin.upload.fileName;
}

/**
 * The origin of a child an index lists: within an uploaded index (`uploads` given), an uploaded file it
 * names; otherwise its URL resolved against the index's final URL. Null when the URL is invalid.
 */
export function childOrigin(
  loc: string,
  base: string | null,
  uploads: readonly UploadSource[] | null,
): Origin | null {
  const upload = uploads ? matchUpload(loc, uploads) : undefined;
  if (upload) return { type: 'upload', upload };
  try {
    return { type: 'url', url: new URL(loc, base ?? undefined).href };
  } catch {
    return null;
  }
}

/** An uploaded index's child whose URL ends in the name of another uploaded file reads that file. */
function matchUpload(loc: string, uploads: readonly UploadSource[]): UploadSource | undefined {
  let pathPart = loc;
  try {
    pathPart = decodeURIComponent(new URL(loc).pathname);
  } catch {
    // relative or invalid: compare the raw text
  }
  return uploads.find(
    (u) => pathPart === u.fileName || pathPart.endsWith(`/${u.fileName}`) || loc.endsWith(`/${u.fileName}`),
  );
}
