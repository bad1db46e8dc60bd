// Which file first listed each URL, without keeping the URLs: a 53-bit hash per URL in an open-addressing
// table (a Float64Array of hashes beside an Int32Array of file numbers: 12 bytes a slot, at most half the
// slots used, so 12-24 bytes per distinct URL; about 24 MB at 1,000,000 URLs). Two different URLs share a
// hash with a chance of about 1 in 18,000 at 1,000,000 URLs: then one of them is wrongly called a duplicate.
import { hash53 } from '@/lib/urls/key-tally';

const EMPTY = 0; // hash53 never returns 0

export class UrlTable {
  private hashes = new Float64Array(1 << 12);
  private files = new Int32Array(1 << 12);
  private used = 0;

  /** Records `url` as seen in `file`; returns the file that listed it first, or -1 if it is new. */
  add(url: string, file: number): number {
    if ((this.used + 1) * 2 > this.hashes.length) this.grow();
    const h = hash53(url);
    const mask = this.hashes.length - 1;
    let i = h & mask;
    for (;;) {
      const slot = this.hashes[i] as number;
      if (slot === EMPTY) {
        this.hashes[i] = h;
        this.files[i] = file;
        this.used++;
        return -1;
      }
      if (slot === h) return this.files[i] as number;
      i = (i + 1) & mask;
    }
  }

  get size(): number {
    return this.used;
  }

  private grow(): void {
    const oldHashes = this.hashes;
    const oldFiles = this.files;
    this.hashes = new Float64Array(oldHashes.length * 2);
    this.files = new Int32Array(oldHashes.length * 2);
    const mask = this.hashes.length - 1;
    for (let j = 0; j < oldHashes.length; j++) {
      const h = oldHashes[j] as number;
      if (h === EMPTY) continue;
      let i = h & mask;
      while (this.hashes[i] !== EMPTY) i = (i + 1) & mask;
      this.hashes[i] = h;
      this.files[i] = oldFiles[j] as number;
    }
  }
}
