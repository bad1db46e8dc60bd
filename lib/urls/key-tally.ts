// Tells, while rows stream through an import, whether every key is distinct, without keeping the keys:
// each key becomes a 53-bit hash in an open-addressing table of doubles (8 bytes a slot; about 24 MB
// at 1,000,000 keys). Equal keys always collide, so "no collision seen" proves the keys distinct; a
// collision of different keys (about 1 in 20,000 at 1,000,000 keys) only makes the answer "not known",
// and the caller then counts in the database instead.

const EMPTY = 0; // hashes are never 0 (see hash53)

/** Two 32-bit FNV-1a variants over the UTF-16 code units, folded into 53 bits; never 0. */
export function hash53(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // 32 bits of a, 21 bits of b.
  const h = (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
  return h === EMPTY ? 1 : h;
}

export class KeyTally {
  private slots = new Float64Array(1 << 16);
  private used = 0;
  private collided = false;
  /** Keys added (null keys are not counted). */
  count = 0;

  add(key: string | null): void {
    if (key === null) return;
    this.count++;
    if (this.collided) return; // the answer is already "not known"
    if ((this.used + 1) * 2 > this.slots.length) this.grow();
    if (!this.insert(hash53(key))) this.collided = true;
  }

  /** The number of distinct keys when it is known for certain, else null. */
  get distinct(): number | null {
    return this.collided ? null : this.count;
  }

  /** Inserts a hash; false when it was already there. */
  private insert(h: number): boolean {
    const mask = this.slots.length - 1;
    let i = h & mask;
    for (;;) {
      const slot = this.slots[i] as number;
      if (slot === EMPTY) {
        this.slots[i] = h;
        this.used++;
        return true;
      }
      if (slot === h) return false;
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.used = 0;
    for (const h of old) if (h !== EMPTY) this.insert(h);
  }
}
