// Splits the audit's entry stream (sorted by file, then position, in batches of any size) into each file's
// entries, in the order the lint walks the files: entries of files it skips are passed over.
import type { StoredEntry } from './feed';

/** Call `of` with increasing file ids, draining each before the next. */
export class EntriesByFile {
  private batch: StoredEntry[] = [];
  private at = 0;
  private ended = false;

  constructor(private readonly source: AsyncIterator<StoredEntry[]>) {}

  private async fill(): Promise<boolean> {
    while (this.at >= this.batch.length) {
      if (this.ended) return false;
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
        return false;
      }
      this.batch = next.value;
      this.at = 0;
    }
    return true;
  }

  async *of(fileId: number): AsyncGenerator<StoredEntry[]> {
    while (await this.fill()) {
      const batch = this.batch;
      while (this.at < batch.length && (batch[this.at] as StoredEntry).fileId < fileId) this.at++;
      if (this.at >= batch.length) continue;
      const from = this.at;
      while (this.at < batch.length && (batch[this.at] as StoredEntry).fileId === fileId) this.at++;
      if (this.at > from) yield batch.slice(from, this.at);
      // The batch goes on with a later file's entries: this file's are over.
      if (this.at < batch.length) return;
    }
  }
}
