// Entries the parser refuses (a loc over the length limit, a javascript: or data: location) are
// counted per file, with the first few kept as examples: a bounded prefix of the value, never the
// whole of it, so a hostile 60 MB <loc> costs a few hundred bytes in the file's warnings.

import type { EntryErrorExample, SitemapWarning } from './types';

/** Examples kept per code and file. */
export const MAX_EXAMPLES = 3;
/** Characters of a refused value kept in an example. */
export const EXAMPLE_PREFIX_CHARS = 100;

type Format = (count: number, first: EntryErrorExample) => string;

interface Tally {
  count: number;
  examples: EntryErrorExample[];
  format: Format;
}

export function examplePrefix(value: string): string {
  return value.length > EXAMPLE_PREFIX_CHARS ? `${value.slice(0, EXAMPLE_PREFIX_CHARS)}…` : value;
}

export class EntryErrors {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly warnings: SitemapWarning[]) {}

  /** `value` may be any length: only its prefix is kept. */
  add(code: string, position: number, line: number, value: string, format: Format): void {
    let tally = this.tallies.get(code);
    if (!tally) {
      tally = { count: 0, examples: [], format };
      this.tallies.set(code, tally);
    }
    tally.count++;
    if (tally.examples.length < MAX_EXAMPLES)
      tally.examples.push({ position, line, prefix: examplePrefix(value) });
  }

  flush(): void {
    for (const [code, { count, examples, format }] of this.tallies) {
      const first = examples[0] as EntryErrorExample;
      this.warnings.push({ code, message: format(count, first), line: first.line, count, examples });
    }
    this.tallies.clear();
  }
}
