// saxes collects a whole text node, attribute value or name before it emits it, so a 60 MB <loc>
// used to sit in the parser's own buffer before any handler could refuse it. These helpers read
// those buffers (private fields of saxes 6, pinned in package.json) between writes so the reader
// can stop them growing; lib/sitemap/parse-limits.test.ts fails if saxes renames them.

interface SaxesBuffers {
  /** The pending text node, CDATA section, comment, PI or attribute value. */
  text: string;
  /** The element or attribute name being read. */
  name: string;
  /** The entity reference being read. */
  entity: string;
  state: number;
  /** The chunk being read and the index of the character read last (where an error was raised). */
  chunk: string;
  prevI: number;
}

// saxes 6 state numbers (saxes.js: `const S_TEXT = 13` …).
const S_TEXT = 13;
const S_ENTITY = 14;
const S_COMMENT = 17;
const S_COMMENT_ENDED = 19;
const S_CDATA = 20;
const S_CDATA_ENDING_2 = 22;
const S_PI_BODY = 25;
const S_PI_ENDING = 26;

/** Whether saxes is inside an entity reference (after a `&`, before its `;`). */
export function isInEntity(state: number): boolean {
  return state === S_ENTITY;
}

/** What the pending buffer is: character data a handler will see, data no handler reads, or markup. */
export type BufferKind = 'character-data' | 'unread' | 'markup';

export function buffers(parser: object): SaxesBuffers {
  return parser as unknown as SaxesBuffers;
}

export function bufferKind(state: number): BufferKind {
  if (state === S_TEXT || state === S_ENTITY || (state >= S_CDATA && state <= S_CDATA_ENDING_2)) {
    return 'character-data';
  }
  if ((state >= S_COMMENT && state <= S_COMMENT_ENDED) || state === S_PI_BODY || state === S_PI_ENDING) {
    return 'unread';
  }
  return 'markup';
}

/** Characters the parser holds right now (text + name + entity). */
export function bufferedChars(parser: object): number {
  const b = buffers(parser);
  return b.text.length + b.name.length + b.entity.length;
}
