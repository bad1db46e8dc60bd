// The shared report as a PDF (pdfkit, built-in Helvetica only: nothing is fetched or embedded): title,
// audit, summary counts per list and reason, warnings, and the first rows of each list. The input is
// bounded (PDF_ROWS_PER_LIST rows per list), so the document is built in memory and returned whole.
import PDFDocument from 'pdfkit';
import { formatCount } from '@/lib/audits/format';
import { statusLabel } from '@/lib/audits/labels';
import { rankReasons } from '@/lib/findings/chart-data';
import { decisionLabel, LIST_HINTS, listLabel, reasonLabel, sanityWarningTitle } from '@/lib/findings/format';
import { type FindingList, LISTS } from '@/lib/findings/schema';
import { utcDateTime } from './format';
import type { PdfListRows, PdfReportData } from './shared';

type Doc = PDFKit.PDFDocument;

const MARGIN = 48;
const BLACK = '#000000';
const GREY = '#555555';
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

/** The longest start of `text` that fits `width` at the current font, with "…" when it was cut. */
function fitText(doc: Doc, text: string, width: number): string {
  const safe = pdfSafe(text);
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

function bottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** Starts a new page unless `height` more points fit on this one. */
function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

function paragraph(doc: Doc, text: string, { size = 10, bold = false, colour = BLACK, gap = 2 } = {}): void {
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(size)
    .fillColor(colour)
    .text(pdfSafe(text), doc.page.margins.left, doc.y, { width: contentWidth(doc) });
  doc.y += gap;
}

function heading(doc: Doc, text: string, size = 13): void {
  ensureSpace(doc, size * 4);
  doc.y += size * 0.6;
  paragraph(doc, text, { size, bold: true, gap: 4 });
}

function rule(doc: Doc): void {
  const left = doc.page.margins.left;
  doc
    .moveTo(left, doc.y)
    .lineTo(left + contentWidth(doc), doc.y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y += 6;
}

// ── Summary ──────────────────────────────────────────────────────────────────────────────────────

function keyValues(doc: Doc, pairs: [string, string][]): void {
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

function listSummary(doc: Doc, data: PdfReportData, list: FindingList): void {
  const findings = data.audit.findings;
  if (!findings) return;
  const summary = findings[list];
  const decisions = findings.decisions[list];
  ensureSpace(doc, 60);
  paragraph(doc, `${listLabel(list)}: ${formatCount(summary.total)} rows`, { size: 11, bold: true, gap: 0 });
  paragraph(doc, LIST_HINTS[list], { size: 9, colour: GREY, gap: 3 });
  const reasons = rankReasons(summary.byReason);
  if (reasons.length === 0) paragraph(doc, 'Nothing in this list.', { size: 9.5, colour: GREY });
  const left = doc.page.margins.left + 12;
  for (const [reason, count] of reasons) {
    ensureSpace(doc, 13);
    const y = doc.y;
    doc.font('Helvetica').fontSize(9.5).fillColor(BLACK);
    doc.text(fitText(doc, reasonLabel(reason), 220), left, y, { lineBreak: false });
    const n = formatCount(count);
    doc.text(n, left + 300 - doc.widthOfString(n), y, { lineBreak: false });
    doc.y = y + 12.5;
  }
  paragraph(
    doc,
    `Decisions: ${formatCount(decisions.approved)} approved, ${formatCount(decisions.rejected)} rejected, ${formatCount(decisions.pending)} pending`,
    { size: 9, colour: GREY, gap: 8 },
  );
}

function summary(doc: Doc, data: PdfReportData): void {
  const { audit } = data;
  heading(doc, 'Summary');
  const pairs: [string, string][] = [
    ['Status', statusLabel(audit.status)],
    ['Created', utcDateTime(audit.createdAt)],
    ['Reconciled', audit.findings ? utcDateTime(audit.findings.reconciledAt) : 'Not reconciled'],
  ];
  if (audit.findings?.crawlTime) pairs.push(['Crawl time', utcDateTime(audit.findings.crawlTime)]);
  pairs.push(
    [
      'Sitemap files',
      `${formatCount(audit.sitemap.files)} read, ${formatCount(audit.sitemap.filesFailed)} failed`,
    ],
    [
      'Sitemap URLs',
      `${formatCount(audit.sitemap.entries)} entries, ${formatCount(audit.sitemap.uniqueUrls)} unique`,
    ],
    [
      'Crawl rows',
      `${formatCount(audit.crawl.rows)} read, ${formatCount(audit.crawl.rowsRejected)} rejected`,
    ],
  );
  if (audit.findings) {
    const excluded = audit.findings.addExcluded;
    pairs.push([
      'Not added',
      `${formatCount(excluded.non200)} non-200, ${formatCount(excluded.noindex)} noindex, ${formatCount(excluded.canonicalised)} canonicalised`,
    ]);
  }
  keyValues(doc, pairs);

  heading(doc, 'Warnings', 11);
  if (audit.warnings.length === 0) paragraph(doc, 'None.', { size: 9.5, colour: GREY });
  for (const warning of audit.warnings) {
    ensureSpace(doc, 28);
    paragraph(doc, sanityWarningTitle(warning.code), { size: 9.5, bold: true, gap: 0 });
    paragraph(doc, `${warning.message} (${warning.code})`, { size: 9.5, gap: 5 });
  }

  heading(doc, 'Findings per list and reason', 11);
  if (!audit.findings) {
    paragraph(doc, 'This audit has no findings: it has not been reconciled.', { size: 9.5, colour: GREY });
    return;
  }
  for (const list of LISTS) listSummary(doc, data, list);
}

// ── Lists ────────────────────────────────────────────────────────────────────────────────────────

interface Column {
  title: string;
  width: number;
}

const COLUMNS: Column[] = [
  { title: 'URL', width: 255 },
  { title: 'Reason', width: 100 },
  { title: 'Decision', width: 55 },
  { title: 'Decided by', width: 89 },
];
const GUTTER = 5;
const ROW_HEIGHT = 12;

function tableRow(doc: Doc, cells: string[], { bold = false } = {}): void {
  const y = doc.y;
  let x = doc.page.margins.left;
  doc
    .font(bold ? 'Helvetica-Bold' : 'Helvetica')
    .fontSize(8)
    .fillColor(bold ? GREY : BLACK);
  COLUMNS.forEach((column, i) => {
    doc.text(fitText(doc, cells[i] ?? '', column.width - GUTTER), x, y + 2, { lineBreak: false });
    x += column.width;
  });
  doc.y = y + ROW_HEIGHT;
}

function tableHeader(doc: Doc): void {
  tableRow(
    doc,
    COLUMNS.map((c) => c.title),
    { bold: true },
  );
  rule(doc);
  doc.y -= 4;
}

function listRows(doc: Doc, rows: PdfListRows): void {
  heading(doc, `${listLabel(rows.list)} list: ${formatCount(rows.total)} rows`);
  if (rows.rows.length === 0) {
    paragraph(doc, 'Nothing in this list.', { size: 9.5, colour: GREY });
    return;
  }
  ensureSpace(doc, ROW_HEIGHT * 3);
  tableHeader(doc);
  for (const finding of rows.rows) {
    if (doc.y + ROW_HEIGHT > bottom(doc)) {
      doc.addPage();
      paragraph(doc, `${listLabel(rows.list)} list (continued)`, { size: 9, colour: GREY, gap: 4 });
      tableHeader(doc);
    }
    tableRow(doc, [
      finding.url,
      reasonLabel(finding.reason),
      decisionLabel(finding.decision),
      finding.decidedBy ?? '—',
    ]);
  }
  const more = rows.total - rows.rows.length;
  if (more > 0) {
    doc.y += 4;
    paragraph(doc, `and ${formatCount(more)} more rows — export the CSV from the app for all of them`, {
      size: 9,
      colour: GREY,
    });
  }
}

/** The report as PDF bytes. `compress` deflates the page streams (pdfkit's default). */
export async function buildReportPdf(data: PdfReportData, { compress = true } = {}): Promise<Buffer> {
  const { audit } = data;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress,
    info: {
      Title: pdfSafe(`${audit.name} — audit report`),
      Creator: 'Sitemap Audit',
      CreationDate: data.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  paragraph(doc, 'Sitemap audit report', { size: 20, bold: true, gap: 4 });
  paragraph(doc, audit.name, { size: 14, bold: true, gap: 2 });
  paragraph(doc, `Generated ${utcDateTime(data.generatedAt.toISOString())}`, { size: 9.5, colour: GREY });
  rule(doc);
  summary(doc, data);
  for (const rows of data.lists) {
    doc.addPage();
    listRows(doc, rows);
  }
  doc.end();
  return done;
}
