// Second stage: uncompressed bytes in, text out, chunk by chunk.
// The character encoding comes from a BOM, else from the XML declaration, else UTF-8. Decoding is
// fatal so a mis-declared file fails loudly instead of ingesting mojibake URLs.

import { SitemapParseError, type SitemapWarning } from './types';

/** How far into the file an XML declaration may end; real ones end within ~100 bytes. */
const SNIFF_LIMIT = 1024;

const ENCODING_ATTRIBUTE = /\bencoding\s*=\s*["']([^"']*)["']/;

function isAsciiSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

type Sniffed = { label: string; declared: string | null; bom?: true } | 'need-more';

function sniffEncoding(bytes: Uint8Array, atEnd: boolean): Sniffed {
  const [b0, b1, b2, b3] = bytes;
  if (bytes.length < 4 && !atEnd) return 'need-more';
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { label: 'utf-8', declared: null, bom: true };
  if (b0 === 0xff && b1 === 0xfe) return { label: 'utf-16le', declared: null, bom: true };
  if (b0 === 0xfe && b1 === 0xff) return { label: 'utf-16be', declared: null, bom: true };
  // UTF-16 without a BOM still starts with "<?" in its own byte order.
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return { label: 'utf-16le', declared: null };
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return { label: 'utf-16be', declared: null };

  let start = 0;
  while (start < bytes.length && isAsciiSpace(bytes[start])) start++;
  const undecided = !atEnd && bytes.length < SNIFF_LIMIT;
  if (start + 5 > bytes.length) return undecided ? 'need-more' : { label: 'utf-8', declared: null };
  const isDeclaration =
    bytes[start] === 0x3c &&
    bytes[start + 1] === 0x3f &&
    bytes[start + 2] === 0x78 &&
    bytes[start + 3] === 0x6d &&
    bytes[start + 4] === 0x6c;
  if (!isDeclaration) return { label: 'utf-8', declared: null };
  let end = start + 5;
  while (end + 1 < bytes.length && !(bytes[end] === 0x3f && bytes[end + 1] === 0x3e)) end++;
  if (end + 1 >= bytes.length) return undecided ? 'need-more' : { label: 'utf-8', declared: null };
  const declaration = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
  const declared = ENCODING_ATTRIBUTE.exec(declaration)?.[1] ?? null;
  return { label: declared ?? 'utf-8', declared };
}

/** Streaming decoder: feed bytes with `decode`, then call `end` once. */
export class ContentDecoder {
  private decoder: TextDecoder | null = null;
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private bytesDecoded = 0;
  private readonly warnings: SitemapWarning[];
  private readonly onBom: () => void;

  /** `onBom` is called once when the bytes start with a byte order mark. */
  constructor(warnings: SitemapWarning[], onBom: () => void = () => {}) {
    this.warnings = warnings;
    this.onBom = onBom;
  }

  decode(chunk: Uint8Array): string {
    if (this.decoder) return this.run(chunk, true);
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    return this.tryStart(false);
  }

  end(): string {
    const text = this.decoder ? '' : this.tryStart(true);
    return text + this.run(new Uint8Array(0), false);
  }

  private tryStart(atEnd: boolean): string {
    const bytes = Buffer.concat(this.pending, this.pendingLength);
    const sniffed = sniffEncoding(bytes, atEnd);
    if (sniffed === 'need-more') return '';
    this.pending = [];
    this.pendingLength = 0;
    if (sniffed.bom) this.onBom();
    this.decoder = this.createDecoder(sniffed.label, sniffed.declared);
    return this.run(bytes, !atEnd);
  }

  private createDecoder(label: string, declared: string | null): TextDecoder {
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(label, { fatal: true });
    } catch {
      throw new SitemapParseError(
        'bad_encoding',
        `the XML declaration names an unsupported character encoding "${label.slice(0, 40)}"`,
      );
    }
    if (decoder.encoding === 'replacement') {
      throw new SitemapParseError('bad_encoding', `the character encoding "${label}" is not supported`);
    }
    // The declaration was readable as ASCII, so the bytes cannot really be UTF-16: the label lies.
    if (declared !== null && decoder.encoding.startsWith('utf-16')) {
      this.warnings.push({
        code: 'encoding_mismatch',
        message: `the XML declaration says "${declared}" but the file is not UTF-16; decoded as UTF-8`,
      });
      decoder = new TextDecoder('utf-8', { fatal: true });
    }
    return decoder;
  }

  private run(bytes: Uint8Array, stream: boolean): string {
    const decoder = this.decoder as TextDecoder;
    const from = this.bytesDecoded;
    this.bytesDecoded += bytes.length;
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      const where = stream
        ? `between bytes ${from} and ${this.bytesDecoded}`
        : `at the end of the file (byte ${this.bytesDecoded})`;
      if (decoder.encoding === 'utf-8') {
        throw new SitemapParseError(
          'invalid_utf8',
          `the file is not valid UTF-8: an invalid byte sequence was found ${where}; declare the real encoding in the XML declaration or save the file as UTF-8`,
        );
      }
      throw new SitemapParseError(
        'bad_encoding',
        `the file is not valid ${decoder.encoding}: an invalid byte sequence was found ${where}`,
      );
    }
  }
}
