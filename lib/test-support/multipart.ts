// Hand-built multipart/form-data bodies, byte for byte, for tests that need what FormData cannot send
// (raw UTF-8 or RFC 5987 file names, a NUL in a name, a body cut short).
export const BOUNDARY = 'sitemap-audit-test-boundary';
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** One part; `filename` is written as raw UTF-8, as browsers send it; `extra` is appended to the
 * content-disposition (e.g. a `filename*`). */
export function part(name: string, value: string | Uint8Array, filename?: string, extra = ''): Buffer {
  const file = filename === undefined ? '' : `; filename="${filename}"`;
  const type = filename === undefined ? '' : 'content-type: application/octet-stream\r\n';
  const head = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"${file}${extra}\r\n${type}\r\n`;
  return Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(value), Buffer.from('\r\n')]);
}

/** The closing boundary. */
export const END = Buffer.from(`--${BOUNDARY}--\r\n`);

/** A whole body from parts. */
export function multipartBody(...parts: Buffer[]): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.concat([...parts, END]));
}
