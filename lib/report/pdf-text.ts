// Text on the report's PDF pages (pdfkit, built-in Helvetica): characters the standard fonts can show,
// lines cut to a width, paragraphs, headings and rules that start a new page when they would not fit.

import { clipForDisplay } from '@/lib/findings/display';

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
