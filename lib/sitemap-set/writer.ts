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

export interface SetFile extends WrittenPart {
  stem: string;
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

/** What one written file (or part of a split one) holds. */
export interface WrittenPart {
  name: string;
  urls: number;
  /** Uncompressed bytes. */
  bytes: number;
}

/** One file being written, for either layout: its head, entries in chunks of about CHUNK_CHARS, its tail,
 * into the sink's stream (gzipped or not) with backpressure. Only the current chunk is held. */
export class FilePart {
  readonly written: WrittenPart;
  private readonly input: Writable;
  private parts: string[] = [];
  private chars = 0;

  constructor(
    name: string,
    head: string,
    private readonly tail: string,
    gzip: boolean,
    sink: FileSink,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.written = { name, urls: 0, bytes: Buffer.byteLength(head) + Buffer.byteLength(tail) };
    const stream = gzip ? createGzip() : new PassThrough();
    this.input = stream;
    sink(name, stream, gzip);
    this.parts.push(head);
    this.chars = head.length;
  }

  /** Whether one more entry of `bytes` stays within the limits (a file's first entry always does). */
  fits(bytes: number, maxUrls: number, maxBytes: number): boolean {
    return this.written.urls === 0 || (this.written.urls < maxUrls && this.written.bytes + bytes <= maxBytes);
  }

  async add(text: string, bytes: number): Promise<void> {
    this.parts.push(text);
    this.chars += text.length;
    this.written.urls++;
    this.written.bytes += bytes;
    if (this.chars >= CHUNK_CHARS) await this.flush();
  }

  /** An index's whole body at once (`entries`: the children it lists). */
  async addBody(text: string, entries: number): Promise<void> {
    this.parts.push(text);
    this.chars += text.length;
    this.written.urls += entries;
    this.written.bytes += Buffer.byteLength(text);
    await this.flush();
  }

  async close(): Promise<void> {
    this.parts.push(this.tail);
    await this.flush();
    this.input.end();
  }

  private async flush(): Promise<void> {
    const text = this.parts.join('');
    this.parts = [];
    this.chars = 0;
    // An abort (the client went away) ends the wait for the drain with its reason.
    if (!this.input.write(text)) await once(this.input, 'drain', this.signal ? { signal: this.signal } : {});
  }
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
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  const files: { stem: string; part: FilePart }[] = [];
  let open: FilePart | null = null;
  let section: string | null = null;
  for await (const batch of batches) {
    for (const row of batch) {
      signal?.throwIfAborted();
      const element = urlElement(row);
      const bytes = Buffer.byteLength(element);
      if (open === null || row.section !== section || !open.fits(bytes, options.maxUrls, maxBytes)) {
        if (open) await open.close();
        if (files.length === MAX_INDEX_FILES) {
          throw new Error(`The corrected set would need more than ${MAX_INDEX_FILES} files`);
        }
        const { stem, name } = namer.next(row.section);
        open = new FilePart(name, URLSET_HEAD, URLSET_TAIL, options.gzip, sink, signal);
        files.push({ stem, part: open });
        section = row.section;
      }
      await open.add(element, bytes);
    }
  }
  if (open) await open.close();
  return files.map(({ stem, part }) => ({ ...part.written, stem }));
}
