// A file outcome with nothing measured yet (no sizes, no entries): what skipped and failed files report,
// and the base a robots.txt result fills in.
import type { FileOutcome } from './tree-types';

export function emptyOutcome(
  status: FileOutcome['status'],
  error: FileOutcome['error'],
  kind: string | null = null,
): FileOutcome {
  return {
    status,
    kind,
    httpStatus: null,
    finalUrl: null,
    compressedBytes: null,
    uncompressedBytes: null,
    entries: 0,
    partial: false,
    error,
    warnings: [],
  };
}
