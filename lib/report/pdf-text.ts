// Text on the report's PDF pages (pdfkit, built-in Helvetica): characters the standard fonts can show,
// lines cut to a width, paragraphs, headings and rules that start a new page when they would not fit.

import { clipForDisplay } from '@/lib/core/display';

export type Doc = PDFKit.PDFDocument;

export const MARGIN = 48;
export const BLACK = '#000000';
export const GREY = '#555555';
const RULE = '#bbbbbb';

// Characters the standard fonts can show (WinAnsi): Latin-1 plus these; anything else becomes "?".
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the built-in Helvetica can encode: control characters dropped, other scripts shown as "?". */
export function pdfSafe(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code === 0x09 || code === 0x0a) out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (code <= 0xff || WIN_ANSI_EXTRA.has(char)) out += char;
    else out += '?';
  }
  return out;
}

/** No line of a report page holds more characters than this (A4 at 8 points: about 120). */
const LINE_CHARS_MAX = 300;

/** The longest start of `text` that fits `width` at the current font, with "…" when it was cut. Only the
 * first LINE_CHARS_MAX characters are looked at, so measuring costs the same whatever the text's length. */
export function fitText(doc: Doc, text: string, width: number): string {
  const safe = pdfSafe(text.length > LINE_CHARS_MAX ? `${text.slice(0, LINE_CHARS_MAX)}…` : text);
  if (doc.widthOfString(safe) <= width) return safe;
  let low = 0;
  let high = safe.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${safe.slice(0, mid)}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return `${safe.slice(0, low)}…`;
}

export function bottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

export function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Starts a new page unless `height` more points fit on this one. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

export function paragraph(
  doc: Doc,
  text: string,
  { size = 10, bold = false, colour = BLACK, gap = 2 } = {},
): void {
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .fillColor(colour)
    .text(pdfSafe(clipForDisplay(text)), doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.y += gap;
}

export function heading(doc: Doc, text: string, size = 13): void {
  ensureSpace(doc, size * 4);
  doc.y += size * 0.6;
  paragraph(doc, text, { size, bold: true, gap: 4 });
}

export function rule(doc: Doc): void {
  const left = doc.page.margins.left;
  doc
    .moveTo(left, doc.y)
    .lineTo(left + contentWidth(doc), doc.y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y += 6;
}

/** Key-value lines: the key grey on the left, the value wrapping in the column at 140 points. */
export function keyValues(doc: Doc, pairs: [string, string][]): void {
  const left = doc.page.margins.left;
  for (const [key, value] of pairs) {
    ensureSpace(doc, 14);
    const y = doc.y;
    doc.font('Helvetica').fontSize(9.5).fillColor(GREY).text(pdfSafe(key), left, y, { lineBreak: false });
    doc.y = y;
    doc
      .font('Helvetica')
      .fontSize(9.5)
      .fillColor(BLACK)
      .text(pdfSafe(value), left + 140, y, { width: contentWidth(doc) - 140 });
    doc.y = Math.max(doc.y, y + 13) + 1;
  }
}

// ── Tables ───────────────────────────────────────────────────────────────────────────────────────

export interface Column {
  title: string;
  width: number;
}

const GUTTER = 5;
export const ROW_HEIGHT = 12;

/** The left edge of each column, from the page's margin. */
export function columnLefts(doc: Doc, columns: readonly Column[]): number[] {
  const lefts: number[] = [];
  let x = doc.page.margins.left;
  for (const column of columns) {
    lefts.push(x);
    x += column.width;
  }
  return lefts;
}

/** One line of a table: each cell cut to its column. */
export function tableRow(doc: Doc, columns: readonly Column[], cells: string[], { bold = false } = {}): void {
  const y = doc.y;
  const lefts = columnLefts(doc, columns);
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(8)
    .fillColor(bold ? GREY : BLACK);
  columns.forEach((column, i) => {
    doc.text(fitText(doc, cells[i] ?? '', column.width - GUTTER), lefts[i] ?? 0, y + 2, { lineBreak: false });
  });
  doc.y = y + ROW_HEIGHT;
}

export function tableHeader(doc: Doc, columns: readonly Column[]): void {
  tableRow(
    doc,
    columns,
    columns.map((c) => c.title),
    { bold: true },
  );
  rule(doc);
  doc.y -= 4;
}

/** The space a status chain leaves between two statuses, where its arrow is drawn. */
const ARROW_GAP = '    ';

/**
 * A hop chain as "301 → 200" in a table cell of `width` at (x, y) (the row's top). Helvetica has no arrow
 * (WinAnsi lacks U+2192, and the Symbol font's encoding is not pdfkit's), so the statuses are one line of
 * text with a gap between each two, and each arrow is drawn in its gap. A chain too long for the cell shows
 * its first and last status around "…".
 */
export function chainCell(doc: Doc, statuses: readonly number[], x: number, y: number, width: number): void {
  doc.font('Helvetica').fontSize(8).fillColor(BLACK);
  if (statuses.length === 0) {
    doc.text('no answer', x, y + 2, { lineBreak: false });
    return;
  }
  let parts = statuses.map(String);
  if (parts.length > 2 && doc.widthOfString(parts.join(ARROW_GAP)) > width - GUTTER)
    parts = [parts[0] ?? '', '…', parts.at(-1) ?? ''];
  doc.text(parts.join(ARROW_GAP), x, y + 2, { lineBreak: false });
  const gap = doc.widthOfString(ARROW_GAP);
  // The middle of a digit's height: pdfkit puts the baseline the font's ascent (0.718 em) below the top.
  const middle = y + 2 + 8 * 0.718 - 8 * 0.36;
  let at = x;
  for (const part of parts.slice(0, -1)) {
    at += doc.widthOfString(part);
    const from = at + gap * 0.2;
    const to = at + gap * 0.8;
    doc
      .moveTo(from, middle)
      .lineTo(to, middle)
      .moveTo(to - 2, middle - 1.6)
      .lineTo(to, middle)
      .lineTo(to - 2, middle + 1.6)
      .lineWidth(0.6)
      .strokeColor(BLACK)
      .stroke();
    at += gap;
  }
}
