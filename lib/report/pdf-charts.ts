// The report page's two charts drawn in the PDF with pdfkit vector shapes, from the same prepared data
// (lib/findings/chart-data.ts): reasons per list as one labelled bar per reason, grouped by list, and
// reasons per sitemap file as stacked bars with a legend. Every bar carries its count as text, so a
// black-and-white print still reads.
import { formatCount } from '@/lib/core/format';
import type { ReasonsPerFileData, ReasonsPerListData } from '@/lib/findings/chart-data';
import { listLabel } from '@/lib/findings/format';
import { BLACK, contentWidth, type Doc, ensureSpace, fitText, GREY, paragraph } from './pdf-text';

const TRACK = '#eef0f3';
const BAR_ROW = 15;
const BAR_HEIGHT = 10;
const VALUE_WIDTH = 52;

function title(doc: Doc, text: string): void {
  paragraph(doc, text, { size: 11, bold: true, gap: 4 });
}

/** The bar's length for `value` on a track of `width` whose longest bar is `max` (at least a sliver). */
function barLength(value: number, max: number, width: number): number {
  return value <= 0 ? 0 : Math.max(1.5, (width * value) / Math.max(1, max));
}

/** One bar per reason, grouped by list: the reason on the left, the bar in its colour, the count after. */
export function drawReasonsPerList(doc: Doc, data: ReasonsPerListData): void {
  ensureSpace(doc, 40 + BAR_ROW * Math.min(data.bars.length, 8));
  title(doc, 'Reasons per list');
  if (data.isEmpty) {
    paragraph(doc, 'No findings to chart.', { size: 9, colour: GREY });
    return;
  }
  const left = doc.page.margins.left;
  const labelWidth = 190;
  const trackLeft = left + labelWidth;
  const track = contentWidth(doc) - labelWidth - VALUE_WIDTH;
  const max = Math.max(...data.bars.map((b) => b.count));
  let list: string | null = null;
  for (const bar of data.bars) {
    if (bar.list !== list) {
      list = bar.list;
      ensureSpace(doc, BAR_ROW * 2 + 4);
      doc.y += 2;
      paragraph(doc, listLabel(bar.list), { size: 8.5, bold: true, colour: GREY, gap: 1 });
    }
    ensureSpace(doc, BAR_ROW);
    const y = doc.y;
    doc
      .rect(trackLeft, y + 1, track, BAR_HEIGHT)
      .fillColor(TRACK)
      .fill();
    doc
      .rect(trackLeft, y + 1, barLength(bar.count, max, track), BAR_HEIGHT)
      .fillColor(bar.colour)
      .fill();
    doc.font('Helvetica').fontSize(8.5).fillColor(BLACK);
    doc.text(fitText(doc, bar.label, labelWidth - 14), left + 8, y + 2, { lineBreak: false });
    doc.text(formatCount(bar.count), trackLeft + track + 6, y + 2, { lineBreak: false });
    doc.y = y + BAR_ROW;
  }
  const notes: string[] = [];
  if (data.emptyLists.length > 0)
    notes.push(`Nothing in ${data.emptyLists.map((l) => listLabel(l)).join(' or ')}.`);
  if (data.foldedReasons > 0)
    notes.push(
      `${data.foldedReasons === 1 ? '1 smaller reason is' : `${data.foldedReasons} smaller reasons are`} drawn together as "Other reasons".`,
    );
  doc.y += 3;
  if (notes.length > 0) paragraph(doc, notes.join(' '), { size: 8, colour: GREY, gap: 6 });
}

/** Coloured squares with the series' names, wrapped to the width. */
function legend(doc: Doc, series: ReasonsPerFileData['series']): void {
  const left = doc.page.margins.left;
  const right = left + contentWidth(doc);
  doc.font('Helvetica').fontSize(8);
  let x = left;
  let y = doc.y + 2;
  for (const s of series) {
    const label = fitText(doc, s.label, 160);
    const width = 12 + doc.widthOfString(label) + 12;
    if (x + width > right && x > left) {
      x = left;
      y += 12;
    }
    doc
      .rect(x, y + 1, 8, 8)
      .fillColor(s.colour)
      .fill();
    doc.fillColor(BLACK).text(label, x + 11, y + 1, { lineBreak: false });
    x += width;
  }
  doc.y = y + 14;
}

/** One stacked bar per sitemap file (the largest ten, the rest as "Other files"), a segment per reason. */
export function drawReasonsPerFile(doc: Doc, data: ReasonsPerFileData): void {
  ensureSpace(doc, 60 + BAR_ROW * Math.min(data.rows.length, 10));
  title(doc, 'Prune and held reasons per sitemap file');
  if (data.isEmpty) {
    paragraph(doc, 'No prune or held rows to chart per file.', { size: 9, colour: GREY });
    return;
  }
  const left = doc.page.margins.left;
  const labelWidth = 150;
  const trackLeft = left + labelWidth;
  const track = contentWidth(doc) - labelWidth - VALUE_WIDTH;
  const max = Math.max(...data.rows.map((r) => r.total));
  for (const row of data.rows) {
    ensureSpace(doc, BAR_ROW);
    const y = doc.y;
    doc
      .rect(trackLeft, y + 1, track, BAR_HEIGHT)
      .fillColor(TRACK)
      .fill();
    let x = trackLeft;
    for (const s of data.series) {
      const value = row.values[s.key] ?? 0;
      if (value <= 0) continue;
      const length = (track * value) / Math.max(1, max);
      doc
        .rect(x, y + 1, Math.max(0.8, length), BAR_HEIGHT)
        .fillColor(s.colour)
        .fill();
      x += length;
    }
    doc.font('Helvetica').fontSize(8.5).fillColor(BLACK);
    doc.text(fitText(doc, row.label, labelWidth - 8), left, y + 2, { lineBreak: false });
    doc.text(formatCount(row.total), trackLeft + track + 6, y + 2, { lineBreak: false });
    doc.y = y + BAR_ROW;
  }
  ensureSpace(doc, 30);
  legend(doc, data.series);
  if (data.foldedFiles > 0)
    paragraph(doc, `${formatCount(data.foldedFiles)} smaller files are drawn together as "Other files".`, {
      size: 8,
      colour: GREY,
      gap: 6,
    });
}
