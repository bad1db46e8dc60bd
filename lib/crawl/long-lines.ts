// Keeps one enormous line of a CSV export (a 60 MB cell) from failing the whole import: a line longer
// than the cap is dropped as it streams — only its line break goes on to csv-parse, which sees an empty
// line — and its position is kept so the reader can reject that row with its line number. At most the
// cap plus one chunk of the current line is held. Multi-line records are not affected: csv-parse's
// own record limit (8 MiB) still stops an unbalanced quote.

/** Longer lines are dropped unread; below csv-parse's max_record_size so this check comes first. */
export const MAX_CSV_LINE_BYTES = 4 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);

export class LongLineGuard {
  /** Offsets, in the bytes passed on, of the line breaks that stand for dropped lines (ascending). */
  readonly cuts: number[] = [];
  private held: Buffer = EMPTY;
  private dropping = false;
  private passed = 0;

  constructor(private readonly maxLineBytes = MAX_CSV_LINE_BYTES) {}

  /** The bytes to hand on for `chunk` (complete lines only; a partial last line is held back). */
  pass(chunk: Buffer): Buffer {
    let data = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = EMPTY;
    if (this.dropping) {
      const newline = data.indexOf(10);
      if (newline === -1) return EMPTY;
      this.dropping = false;
      this.cuts.push(this.passed);
      data = data.subarray(newline);
    }
    const last = data.lastIndexOf(10);
    const tail = last === -1 ? data : data.subarray(last + 1);
    if (tail.length > this.maxLineBytes) this.dropping = true;
    else this.held = tail;
    const out = last === -1 ? EMPTY : data.subarray(0, last + 1);
    this.passed += out.length;
    return out;
  }

  /** What is left at the end of the input: the held last line, or nothing when it was being dropped. */
  end(): Buffer {
    if (this.dropping) {
      this.dropping = false;
      this.cuts.push(this.passed);
      this.passed += 1;
      return Buffer.from('\n');
    }
    const out = this.held;
    this.held = EMPTY;
    this.passed += out.length;
    return out;
  }
}
