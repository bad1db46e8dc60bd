// The PDF's "Search Console" page: the property's totals and coverage, the gap per
// sitemap file drawn as bars (pdfkit rectangles over the shaded 10–30 % and > 30 % bands), then the gap
// table with each file's top reasons and flags. With nothing imported, one line.
import { formatCount } from '@/lib/core/format';
import {
  BAND_COLOURS,
  BAND_LABELS,
  BAND_LINES,
  flagWords,
  formatGap,
  formatShare,
  type GapBarsData,
  prepareGapBars,
} from '@/lib/gsc/gaps-chart';
import type { GscGapsDto, SitemapGapDto } from '@/lib/gsc/gaps-shape';
import {
  BLACK,
  bottom,
  type Column,
  contentWidth,
  type Doc,
  ensureSpace,
  fitText,
  GREY,
  heading,
  keyValues,
  paragraph,
  ROW_HEIGHT,
  tableHeader,
  tableRow,
} from './pdf-text';

const LABEL_WIDTH = 130;
const VALUE_WIDTH = 80;
const BAR_ROW = 13;

const COLUMNS: Column[] = [
  { title: 'Sitemap file', width: 150 },
  { title: 'Submitted', width: 45 },
  { title: 'Indexed', width: 42 },
  { title: 'Not indexed', width: 48 },
  { title: 'Unknown', width: 42 },
  { title: 'Gap', width: 68 },
  { title: 'Band', width: 52 },
  { title: 'Last read', width: 52 },
];

/** Helvetica has no "≈": an estimate is written "~30 % (11–60 %)". */
function gapText(row: SitemapGapDto): string {
  return formatGap(row).replace('≈ ', '~');
}

/** One bar per file: the label, a track with the bands shaded, the bar in its band's colour, the value. */
function drawGapBars(doc: Doc, data: GapBarsData): void {
  const left = doc.page.margins.left;
  const trackLeft = left + LABEL_WIDTH;
  const track = contentWidth(doc) - LABEL_WIDTH - VALUE_WIDTH;
  const at = (pct: number) => trackLeft + (track * pct) / 100;
  ensureSpace(doc, BAR_ROW * Math.min(data.bars.length, 6) + 24);
  for (const bar of data.bars) {
    if (doc.y + BAR_ROW > bottom(doc)) doc.addPage();
    const y = doc.y;
    doc.rect(at(BAND_LINES.investigate), y, at(BAND_LINES.problem) - at(BAND_LINES.investigate), BAR_ROW - 2);
    doc.fillColor('#fdf3e1').fill();
    doc.rect(at(BAND_LINES.problem), y, at(100) - at(BAND_LINES.problem), BAR_ROW - 2);
    doc.fillColor('#fdecea').fill();
    doc.rect(trackLeft, y + 2, Math.max(0.8, (track * bar.gap) / 100), BAR_ROW - 6);
    doc.fillColor(BAND_COLOURS[bar.band]).fill();
    doc.font('Helvetica').fontSize(8).fillColor(BLACK);
    doc.text(fitText(doc, bar.label, LABEL_WIDTH - 6), left, y + 2, { lineBreak: false });
    doc.text(`${bar.gap} % ${BAND_LABELS[bar.band].toLowerCase()}`, at(100) + 6, y + 2, { lineBreak: false });
    doc.y = y + BAR_ROW;
  }
  // The thresholds as lines across the whole chart.
  const top = doc.y - BAR_ROW * data.bars.length;
  for (const pct of [BAND_LINES.investigate, BAND_LINES.problem]) {
    if (top < doc.page.margins.top) break;
    doc
      .moveTo(at(pct), top)
      .lineTo(at(pct), doc.y)
      .dash(2, { space: 2 })
      .lineWidth(0.6)
      .strokeColor(GREY)
      .stroke()
      .undash();
  }
  doc.y += 4;
  paragraph(
    doc,
    `Dashed lines at ${BAND_LINES.investigate} % and ${BAND_LINES.problem} %: under 10 % normal, 10–30 % investigate, over 30 % problem.${data.folded > 0 ? ` The ${data.bars.length} largest gaps are drawn.` : ''}${data.insufficient > 0 ? ` ${data.insufficient === 1 ? 'A file' : `${data.insufficient} files`} without enough data (under 10 % of its URLs known) ${data.insufficient === 1 ? 'is' : 'are'} not drawn.` : ''}`,
    { size: 8, colour: GREY, gap: 6 },
  );
}

function gapTable(doc: Doc, rows: readonly SitemapGapDto[], total: number): void {
  heading(doc, 'Gap per sitemap file', 11);
  ensureSpace(doc, ROW_HEIGHT * 3);
  tableHeader(doc, COLUMNS);
  for (const row of rows) {
    const reasons = row.notIndexedByReason
      .slice(0, 3)
      .map((r) => `${formatCount(r.count)} ${r.reason ?? r.bucket ?? 'no reason given'}`);
    const notes = [...reasons, ...flagWords(row).map((f) => `! ${f}`)];
    if (doc.y + ROW_HEIGHT * (notes.length > 0 ? 2 : 1) > bottom(doc)) {
      doc.addPage();
      paragraph(doc, 'Gap per sitemap file (continued)', { size: 9, colour: GREY, gap: 4 });
      tableHeader(doc, COLUMNS);
    }
    // Text only: a sitemap URL is never a link here.
    tableRow(doc, COLUMNS, [
      row.sitemap,
      formatCount(row.submitted),
      formatCount(row.indexed),
      formatCount(row.notIndexed),
      formatCount(row.unknown),
      gapText(row),
      row.band ? `${BAND_LABELS[row.band]}${row.basis === 'estimate' ? ' (est.)' : ''}` : '—',
      row.lastRead ?? '—',
    ]);
    if (notes.length > 0) {
      const y = doc.y;
      doc.font('Helvetica').fontSize(7.5).fillColor(GREY);
      doc.text(fitText(doc, notes.join(' · '), contentWidth(doc) - 12), doc.page.margins.left + 12, y, {
        lineBreak: false,
      });
      doc.y = y + ROW_HEIGHT - 1;
    }
  }
  if (total > rows.length) {
    doc.y += 4;
    paragraph(
      doc,
      `and ${formatCount(total - rows.length)} more files with smaller gaps — the app lists all of them`,
      {
        size: 9,
        colour: GREY,
      },
    );
  }
}

/** The section; with nothing imported, one line saying so. */
export function gscSection(doc: Doc, gsc: GscGapsDto | null, rows: number): void {
  heading(doc, 'Search Console');
  if (!gsc) {
    paragraph(doc, 'No Search Console data was imported for this audit.', { size: 9.5, colour: GREY });
    return;
  }
  paragraph(
    doc,
    'Per sitemap file, how many distinct submitted URLs Google indexed, did not index (and why) or has not said, from the Search Console exports and URL inspections imported.',
    { size: 9, colour: GREY, gap: 6 },
  );
  const { property } = gsc;
  if (property) {
    keyValues(doc, [
      [
        `Whole property (${property.date ?? '—'})`,
        `${property.indexed === null ? '—' : formatCount(property.indexed)} indexed, ${property.notIndexed === null ? '—' : formatCount(property.notIndexed)} not indexed`,
      ],
      ['Named URL by URL', `${formatCount(property.named)} (${formatShare(property.coverage)} coverage)`],
    ]);
  }
  if (gsc.sitemapReportOn) keyValues(doc, [['Sitemaps report', `imported ${gsc.sitemapReportOn}`]]);
  const bars = prepareGapBars(gsc.sitemaps);
  if (!bars.isEmpty) {
    heading(doc, 'Gap per sitemap file, charted', 11);
    drawGapBars(doc, bars);
  }
  gapTable(doc, gsc.sitemaps.slice(0, rows), gsc.sitemaps.length);
}
