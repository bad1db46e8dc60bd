// Bytes of an export → text: a size cap first (a hostile upload is bounded before it is decoded), then
// the BOM decides the encoding. Search Console writes UTF-8 without a BOM; a spreadsheet round trip may
// add one, and other tools (Ahrefs) write UTF-16, so both BOMs are honoured.
import { Invalid } from './values';

export function decodeExport(bytes: Uint8Array, maxBytes: number): string {
  if (bytes.length > maxBytes) {
    throw new Invalid(
      `the file is ${formatMiB(bytes.length)}, more than the ${formatMiB(maxBytes)} a Search Console export can be`,
    );
  }
  let encoding = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = 'utf-16be';
  try {
    // TextDecoder drops the BOM of its own encoding; fatal, so a binary file is refused, not garbled.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new Invalid(`the file is not ${encoding.toUpperCase()} text (is it a CSV export?)`);
  }
}

export function formatMiB(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KiB`;
  const mib = bytes / 1024 / 1024;
  return `${mib >= 10 ? Math.round(mib) : mib.toFixed(1)} MiB`;
}
