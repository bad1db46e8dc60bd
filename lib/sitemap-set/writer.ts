// Writes the corrected sitemap set from rows sorted by section: one urlset file after the other, each
// closed at the URL or byte limit or where the section changes, written with fast-xml-parser's
// XMLBuilder in small chunks into a stream the caller consumes (the zip), with backpressure. Only the
// current chunk is held: memory does not grow with the set.
import { once } from 'node:events';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { XMLBuilder } from 'fast-xml-parser';
import { FileNamer } from './naming';

/** One URL of the set; rows arrive sorted by section, then URL, without duplicates. */
export interface SetRow {
  /** The URL's first path segment ('' for root pages). */
  section: string;
  url: string;
  lastmod: string | null;
}

export interface WriterOptions {
  maxUrls: number;
  gzip: boolean;
  /** Uncompressed bytes per file; the protocol's MAX_FILE_BYTES unless a test asks for less. */
  maxBytes?: number;
}

export interface SetFile {
  name: string;
  stem: string;
  urls: number;
  /** Uncompressed bytes. */
  bytes: number;
}

/** Receives each file's bytes as a stream, in order; the next file starts once this one has ended. */
export type FileSink = (name: string, body: Readable, isCompressed: boolean) => void;

/** The protocol's per-file limit, uncompressed. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
/** A sitemap index lists at most this many files. */
export const MAX_INDEX_FILES = 50_000;
/** Entries are written in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const URLSET_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n`;
const URLSET_TAIL = '</urlset>\n';
const INDEX_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n`;
const INDEX_TAIL = '</sitemapindex>\n';

// The builder escapes &, <, >, ' and " in text (processEntities, on by default).
const builder = new XMLBuilder({});

/** Whether the text holds what a <loc> must not hold raw: controls, space, anything outside ASCII. */
function needsEncoding(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return true;
  }
  return false;
}

/** The URL as written: a declared loc with a space, a control or a non-ASCII character is written
 * percent-encoded (the WHATWG serialisation, the same address), everything else exactly as declared. */
export function locText(url: string): string {
  if (!needsEncoding(url)) return url;
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** One <url> element. changefreq and priority are not written: Google ignores both (and the lint
 * reports them as noise); lastmod is kept as declared. */
export function urlElement(row: SetRow): string {
  const url: Record<string, string> = { loc: locText(row.url) };
  if (row.lastmod) url.lastmod = row.lastmod;
  return `${builder.build({ url })}\n`;
}

/** The sitemap index of the files, each at `base` + its name. */
export function indexXml(files: readonly SetFile[], base: string): string {
  const items = files.map((f) => builder.build({ sitemap: { loc: `${base}${f.name}` } })).join('\n');
  return `${INDEX_HEAD}${items}${items ? '\n' : ''}${INDEX_TAIL}`;
}

class OpenFile {
  readonly file: SetFile;
  private readonly input: Writable;
  private parts: string[] = [];
  private chars = 0;

  constructor(
    stem: string,
    name: string,
    gzip: boolean,
    sink: FileSink,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.file = {
      name,
      stem,
      urls: 0,
      bytes: Buffer.byteLength(URLSET_HEAD) + Buffer.byteLength(URLSET_TAIL),
    };
    const stream = gzip ? createGzip() : new PassThrough();
    this.input = stream;
    sink(name, stream, gzip);
    this.parts.push(URLSET_HEAD);
  }

  fits(bytes: number, options: WriterOptions): boolean {
    return (
      this.file.urls < options.maxUrls && this.file.bytes + bytes <= (options.maxBytes ?? MAX_FILE_BYTES)
    );
  }

  async add(element: string, bytes: number): Promise<void> {
    this.parts.push(element);
    this.chars += element.length;
    this.file.urls++;
    this.file.bytes += bytes;
    if (this.chars >= CHUNK_CHARS) await this.flush();
  }

  async close(): Promise<void> {
    this.parts.push(URLSET_TAIL);
    await this.flush();
    this.input.end();
  }

  private async flush(): Promise<void> {
    const text = this.parts.join('');
    this.parts = [];
    this.chars = 0;
    if (!this.input.write(text)) await drained(this.input, this.signal);
  }
}

/** Waits for `stream` to drain; an abort (the client went away) ends the wait with its reason. */
async function drained(stream: Writable, signal: AbortSignal | undefined): Promise<void> {
  await once(stream, 'drain', signal ? { signal } : {});
}

/**
 * Writes every row into files of at most `maxUrls` URLs and MAX_FILE_BYTES, one section per file, and
 * returns the files written in order. Throws when the set would need more files than an index lists.
 */
export async function writeSitemapSet(
  batches: AsyncIterable<readonly SetRow[]>,
  options: WriterOptions,
  sink: FileSink,
  signal?: AbortSignal,
): Promise<SetFile[]> {
  const namer = new FileNamer(options.gzip);
  const files: SetFile[] = [];
  let open: OpenFile | null = null;
  let section: string | null = null;
  for await (const batch of batches) {
    for (const row of batch) {
      signal?.throwIfAborted();
      const element = urlElement(row);
      const bytes = Buffer.byteLength(element);
      if (open === null || row.section !== section || !open.fits(bytes, options)) {
        if (open) await open.close();
        if (files.length === MAX_INDEX_FILES) {
          throw new Error(`The corrected set would need more than ${MAX_INDEX_FILES} files`);
        }
        const { stem, name } = namer.next(row.section);
        open = new OpenFile(stem, name, options.gzip, sink, signal);
        files.push(open.file);
        section = row.section;
      }
      await open.add(element, bytes);
    }
  }
  if (open) await open.close();
  return files;
}
