// The display bound: every URL or text a page, API list, report or PDF shows from stored data is cut to
// DISPLAY_MAX_CHARS, with the full length noted, so the web process stays bounded whatever an audit
// holds (a single 60 MB <loc> once made the shared report 126 MB and its PDF cost 3.3 GB). The reads cut
// in SQL (displaySql), so a long value never leaves Postgres whole; clipForDisplay is the same rule for
// text already in hand. The CSV export alone carries stored values whole (it streams).

/** The most characters of one stored value shown anywhere but the CSV export. */
export const DISPLAY_MAX_CHARS = 2048;

/** `text` itself when it is within the bound, else its first DISPLAY_MAX_CHARS and "… (N characters in all)". */
export function clipForDisplay(text: string): string;
export function clipForDisplay(text: string | null): string | null;
export function clipForDisplay(text: string | null): string | null {
  if (text === null || text.length <= DISPLAY_MAX_CHARS || isCut(text)) return text;
  return `${text.slice(0, DISPLAY_MAX_CHARS)}… (${text.length} characters in all)`;
}

const CUT_NOTE = /^… \(\d+ characters in all\)$/;

/** True for a text the bound has already cut (in SQL or here): cutting it again would count the cut text. */
function isCut(text: string): boolean {
  return text.length <= DISPLAY_MAX_CHARS + 40 && CUT_NOTE.test(text.slice(DISPLAY_MAX_CHARS));
}

/** True when `text` was cut by the display bound (a cut value is always longer than the bound). */
export function isClipped(text: string): boolean {
  return text.length > DISPLAY_MAX_CHARS;
}

/** clipForDisplay in SQL, for a text expression (read as `AS` the column's own name by the caller). Postgres
 * counts characters as JavaScript counts UTF-16 units only within the BMP; beyond it the cut is at most
 * one character off, and the bound holds either way. */
export function displaySql(expression: string): string {
  return `CASE WHEN length(${expression}) > ${DISPLAY_MAX_CHARS}
    THEN left(${expression}, ${DISPLAY_MAX_CHARS}) || '… (' || length(${expression}) || ' characters in all)'
    ELSE ${expression} END`;
}
