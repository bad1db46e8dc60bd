// Counts the bytes of a write as they pass and fails it at the first byte over its cap, so an oversized
// body is stopped while it streams instead of after it was stored.
import { Transform } from 'node:stream';
import { tooLarge } from './types';

export function capped(key: string, maxBytes: number | undefined) {
  let bytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (maxBytes !== undefined && bytes > maxBytes) done(tooLarge(key, maxBytes));
      else done(null, chunk);
    },
  });
  return { transform, bytes: () => bytes };
}
