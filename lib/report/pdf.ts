// The shared report as a PDF a stakeholder can read (pdfkit, built-in Helvetica only: nothing is fetched
// or embedded): a cover (audit, site, date, who shared it), the summary with the report page's two charts
// drawn as vector shapes, the latest live spot-check, Search Console's gaps per sitemap file, then per list
// a section per reason with its definition and its top rows' evidence and decision (pdf-rows.ts). Every
// page but the cover has a running header (audit · site) and "Page n of N". The page count is known only
// at the end, so pages are buffered and written out then: the content is bounded (PDF_ROWS_PER_REASON rows
// per reason, PDF_REASONS_PER_LIST reasons per list, one reason's rows read at a time, every text cut
// before it is measured), so a 1,000,000-URL audit makes a PDF of a few dozen pages.
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { statusLabel } from '@/lib/audits/labels';
import { clipForDisplay } from '@/lib/core/display';
import { countText, formatCount } from '@/lib/core/format';
import { listLabel, sanityWarningTitle } from '@/lib/findings/format';
import { issueTitle } from '@/lib/findings/issue-titles';
import { EXCLUDED_INFO } from '@/lib/findings/reasons';
import { utcDateTime } from './format';
import { drawReasonsPerFile, drawReasonsPerList } from './pdf-charts';
import { PDF_ROWS_PER_REASON, type PdfReportData } from './pdf-data';
import { gscSection } from './pdf-gsc';
import { listSection } from './pdf-rows';
import { spotCheckSection } from './pdf-spot-check';
import {
  BLACK,
  contentWidth,
  type Doc,
  ensureSpace,
  fitText,
  GREY,
  heading,
  keyValues,
  MARGIN,
  paragraph,
  pdfSafe,
  rule,
} from './pdf-text';
import { REPORT_GSC_ROWS } from './shared';

/** "shop.example.com", "shop.example.com and 2 more hosts", or "—" before the audit has findings. */
function siteText(site: PdfReportData['site']): string {
  const [first] = site.hosts;
  if (!first) return '—';
  const more = site.total - 1;
  return more > 0 ? `${first} and ${formatCount(more)} more ${more === 1 ? 'host' : 'hosts'}` : first;
}

// ── Cover ────────────────────────────────────────────────────────────────────────────────────────

function cover(doc: Doc, data: PdfReportData): void {
  const { audit } = data;
  doc.y = 190;
  paragraph(doc, 'Sitemap audit report', { size: 12, bold: true, colour: GREY, gap: 8 });
  paragraph(doc, audit.name, { size: 26, bold: true, gap: 6 });
  paragraph(doc, siteText(data.site), { size: 14, gap: 24 });
  rule(doc);
  doc.y += 4;
  const pairs: [string, string][] = [
    ['Shared by', data.sharedBy],
    ['Generated', utcDateTime(data.generatedAt.toISOString())],
    ['Audit status', statusLabel(audit.status)],
    ['Audit created', utcDateTime(audit.createdAt)],
    ['Reconciled', audit.findings ? utcDateTime(audit.findings.reconciledAt) : 'Not reconciled'],
  ];
  if (audit.findings?.crawlTime) pairs.push(['Crawl of', utcDateTime(audit.findings.crawlTime)]);
  keyValues(doc, pairs);
  if (data.reportUrl) {
    doc.y += 10;
    paragraph(doc, 'Every row, with filters and search, at the shared link:', { size: 10, gap: 1 });
    // Text only, like every URL here; wraps inside the width (a token has no spaces to break at).
    paragraph(doc, data.reportUrl, { size: 10, bold: true, gap: 2 });
  }
  doc.y += 18;
  paragraph(doc, 'Inside', { size: 11, bold: true, gap: 3 });
  const inside = ['Summary: figures, warnings and two charts of the reasons'];
  if (audit.findings) {
    if (data.spotCheck) inside.push('Live spot-check: what the site answers today');
    if (data.gsc) inside.push('Search Console: what Google indexed per sitemap file');
    for (const list of data.lists)
      inside.push(
        list.total > 0
          ? `${listLabel(list.list)} list: ${countText(list.total, 'row')}, by reason`
          : `${listLabel(list.list)} list: nothing`,
      );
  }
  for (const line of inside) paragraph(doc, `•  ${line}`, { size: 10, gap: 2 });
  doc.y += 14;
  paragraph(
    doc,
    `Each reason shows its top ${PDF_ROWS_PER_REASON} rows with their evidence and decision; the shared link ${data.reportUrl ? 'above' : 'this PDF came from'} shows every row, and can filter and search them. This is a read-only copy: decisions are made in the app.`,
    { size: 9, colour: GREY },
  );
}

// ── Summary ──────────────────────────────────────────────────────────────────────────────────────

/** A row of boxed key figures: the number large, its label under it. */
function figures(doc: Doc, items: [string, number][]): void {
  const left = doc.page.margins.left;
  const gap = 8;
  const width = (contentWidth(doc) - gap * (items.length - 1)) / items.length;
  ensureSpace(doc, 52);
  const top = doc.y;
  items.forEach(([label, value], i) => {
    const x = left + i * (width + gap);
    doc.roundedRect(x, top, width, 44, 4).lineWidth(0.6).strokeColor('#c4c9d1').stroke();
    doc.font('Helvetica-Bold').fontSize(16).fillColor(BLACK);
    doc.text(fitText(doc, formatCount(value), width - 16), x + 8, top + 7, { lineBreak: false });
    doc.font('Helvetica').fontSize(8).fillColor(GREY);
    doc.text(fitText(doc, label, width - 16), x + 8, top + 29, { lineBreak: false });
  });
  doc.y = top + 54;
}

function summary(doc: Doc, data: PdfReportData): void {
  const { audit } = data;
  const findings = audit.findings;
  heading(doc, 'Summary', 15);
  figures(doc, [
    ['Unique sitemap URLs', audit.sitemap.uniqueUrls],
    ['To prune', findings?.prune.total ?? 0],
    ['To add', findings?.add.total ?? 0],
    ['Held', findings?.held.total ?? 0],
  ]);
  const reviewed = findings
    ? (['prune', 'add', 'held'] as const).reduce(
        (sum, list) => sum + findings.decisions[list].approved + findings.decisions[list].rejected,
        0,
      )
    : 0;
  const total = findings ? findings.prune.total + findings.add.total + findings.held.total : 0;
  keyValues(doc, [
    [
      'Sitemap files',
      `${formatCount(audit.sitemap.files)} read, ${formatCount(audit.sitemap.filesFailed)} failed`,
    ],
    [
      'Sitemap URLs',
      `${countText(audit.sitemap.entries, 'entry', 'entries')}, ${formatCount(audit.sitemap.uniqueUrls)} unique`,
    ],
    [
      'Crawl rows',
      `${formatCount(audit.crawl.rows)} read, ${formatCount(audit.crawl.rowsRejected)} rejected`,
    ],
    ['Reviewed', findings ? `${formatCount(reviewed)} of ${countText(total, 'row')} decided` : '—'],
  ]);

  heading(doc, 'Warnings', 11);
  if (audit.warnings.length === 0) paragraph(doc, 'None.', { size: 9.5, colour: GREY });
  for (const warning of audit.warnings) {
    ensureSpace(doc, 28);
    paragraph(doc, issueTitle(warning.code) ?? sanityWarningTitle(warning.code), {
      size: 9.5,
      bold: true,
      gap: 0,
    });
    paragraph(doc, clipForDisplay(warning.message), { size: 9.5, gap: 5 });
  }
  if (!findings) {
    heading(doc, 'Findings', 11);
    paragraph(doc, 'This audit has no findings: it has not been reconciled.', { size: 9.5, colour: GREY });
    return;
  }
  doc.y += 8;
  drawReasonsPerList(doc, data.perList);
  doc.y += 8;
  drawReasonsPerFile(doc, data.perFile);
  notAdded(doc, findings.addExcluded);
}

/** Undeclared crawled pages the Add list left out, bucket by bucket, each explained. */
function notAdded(doc: Doc, excluded: NonNullable<PdfReportData['audit']['findings']>['addExcluded']): void {
  heading(doc, 'Not added: crawled pages the Add list leaves out', 11);
  for (const bucket of Object.keys(EXCLUDED_INFO) as (keyof typeof EXCLUDED_INFO)[]) {
    const info = EXCLUDED_INFO[bucket];
    ensureSpace(doc, 30);
    paragraph(doc, `${info.label}: ${formatCount(excluded[bucket])}`, { size: 9.5, bold: true, gap: 0 });
    paragraph(doc, `${info.definition} Usual fix: ${info.fix}`, { size: 8, colour: GREY, gap: 4 });
  }
}

// ── Running header and page numbers ──────────────────────────────────────────────────────────────

/** Writes the header and footer on every buffered page but the cover (the first). */
function pageFurniture(doc: Doc, data: PdfReportData): void {
  const range = doc.bufferedPageRange();
  const count = range.count;
  const headerText = pdfSafe(`${clipForDisplay(data.audit.name)} · ${siteText(data.site)}`);
  for (let i = range.start + 1; i < range.start + count; i++) {
    doc.switchToPage(i);
    const left = doc.page.margins.left;
    const width = contentWidth(doc);
    // Outside the margins: without this, pdfkit would start a new page for text below the bottom one.
    const margins = { ...doc.page.margins };
    doc.page.margins = { ...margins, top: 0, bottom: 0 };
    doc.font('Helvetica').fontSize(8).fillColor(GREY);
    doc.text(fitText(doc, headerText, width - 120), left, 24, { lineBreak: false });
    const brand = 'Sitemap audit report';
    doc.text(brand, left + width - doc.widthOfString(brand), 24, { lineBreak: false });
    doc
      .moveTo(left, 36)
      .lineTo(left + width, 36)
      .lineWidth(0.4)
      .strokeColor('#c4c9d1')
      .stroke();
    const footerY = doc.page.height - 32;
    const pageText = `Page ${i - range.start + 1} of ${count}`;
    doc.text(`Generated ${utcDateTime(data.generatedAt.toISOString())}`, left, footerY, { lineBreak: false });
    doc.text(pageText, left + width - doc.widthOfString(pageText), footerY, { lineBreak: false });
    doc.page.margins = margins;
  }
}

export interface PdfOptions {
  /** Deflate the page streams (pdfkit's default). */
  compress?: boolean;
}

/**
 * The report as a stream of PDF bytes. Pages are buffered until the last one is drawn (for "Page n of N"),
 * then written out. A failure half way destroys the stream with the error.
 */
export function reportPdfStream(data: PdfReportData, { compress = true }: PdfOptions = {}): Readable {
  const { audit } = data;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress,
    bufferPages: true,
    info: {
      Title: pdfSafe(`${audit.name} — audit report`),
      Creator: 'Sitemap Audit',
      CreationDate: data.generatedAt,
    },
  });
  const destroyed = () => (doc as unknown as Readable).destroyed;
  const draw = async () => {
    cover(doc, data);
    doc.addPage();
    summary(doc, data);
    // A page of its own for a spot-check's figures and rows and for Search Console's gaps; "none" is one
    // line under the summary.
    if (audit.findings) {
      if (data.spotCheck) doc.addPage();
      spotCheckSection(doc, data.spotCheck, data.spotItems);
    }
    if (data.gsc) doc.addPage();
    gscSection(doc, data.gsc, REPORT_GSC_ROWS);
    for (const list of data.lists) {
      if (destroyed()) return;
      // A list with rows starts a page; an empty one is two lines where the last ended.
      if (list.total > 0) doc.addPage();
      else doc.y += 12;
      const decisions = audit.findings?.decisions[list.list] ?? { approved: 0, rejected: 0, pending: 0 };
      await listSection(doc, list, decisions);
    }
    if (destroyed()) return;
    pageFurniture(doc, data);
    doc.end();
  };
  draw().catch((error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))));
  return doc;
}

/** The whole PDF as bytes (tests, and callers that need its length). */
export async function buildReportPdf(data: PdfReportData, options: PdfOptions = {}): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of reportPdfStream(data, options)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
