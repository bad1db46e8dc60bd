// The shared report as a PDF (pdfkit, built-in Helvetica only: nothing is fetched or embedded): title,
// audit, summary counts per list and reason, warnings, the latest live spot-check, Search Console's gaps
// per sitemap file, and the first rows of each list (with each row's verdict in that spot-check). It is streamed:
// pdfkit writes each page out when the next one starts, and the rows are read a keyset page at a time
// while they are drawn, so the web process holds one page of rows and one PDF page, whatever the audit
// holds (a 60 MB <loc> once cost 40 s and 3.3 GB here). Every text is cut before it is measured.
import type { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { formatCount } from '@/lib/audits/format';
import { statusLabel } from '@/lib/audits/labels';
import { rankReasons } from '@/lib/findings/chart-data';
import { clipForDisplay } from '@/lib/findings/display';
import { decisionLabel, LIST_HINTS, listLabel, sanityWarningTitle } from '@/lib/findings/format';
import { EXCLUDED_INFO, type ReasonInfo, reasonInfo } from '@/lib/findings/reasons';
import { type FindingList, LISTS } from '@/lib/findings/schema';
import { verdictLabel } from '@/lib/spot-check/labels';
import { utcDateTime } from './format';
import { gscSection } from './pdf-gsc';
import { spotCheckSection } from './pdf-spot-check';
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
  MARGIN,
  paragraph,
  pdfSafe,
  ROW_HEIGHT,
  rule,
  tableHeader,
  tableRow,
} from './pdf-text';
import { PDF_ROWS_PER_LIST, type PdfListRows, type PdfReportData, REPORT_GSC_ROWS } from './shared';

// ── Summary ──────────────────────────────────────────────────────────────────────────────────────

/** A reason's (or bucket's) definition and fix, small and grey under its line. */
function definition(doc: Doc, info: ReasonInfo, indent: number): void {
  const left = doc.page.margins.left + indent;
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(GREY)
    .text(pdfSafe(`${info.definition} Usual fix: ${info.fix}`), left, doc.y, {
      width: contentWidth(doc) - indent,
    });
  doc.y += 3;
}

/** A count line: a label on the left, the number right-aligned at 300 points. */
function countLine(doc: Doc, label: string, count: number, indent: number): void {
  ensureSpace(doc, 34);
  const left = doc.page.margins.left + indent;
  const y = doc.y;
  doc.font('Helvetica').fontSize(9.5).fillColor(BLACK);
  doc.text(fitText(doc, label, 220), left, y, { lineBreak: false });
  const n = formatCount(count);
  doc.text(n, left + 300 - doc.widthOfString(n), y, { lineBreak: false });
  doc.y = y + 12;
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
  for (const [reason, count] of reasons) {
    const info = reasonInfo(reason);
    countLine(doc, info.label, count, 12);
    definition(doc, info, 12);
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
    const buckets = Object.keys(EXCLUDED_INFO) as (keyof typeof EXCLUDED_INFO)[];
    pairs.push([
      'Not added',
      buckets.map((b) => `${EXCLUDED_INFO[b].label}: ${formatCount(excluded[b])}`).join(', '),
    ]);
  }
  keyValues(doc, pairs);

  heading(doc, 'Warnings', 11);
  if (audit.warnings.length === 0) paragraph(doc, 'None.', { size: 9.5, colour: GREY });
  for (const warning of audit.warnings) {
    ensureSpace(doc, 28);
    paragraph(doc, sanityWarningTitle(warning.code), { size: 9.5, bold: true, gap: 0 });
    paragraph(doc, `${clipForDisplay(warning.message)} (${warning.code})`, { size: 9.5, gap: 5 });
  }

  heading(doc, 'Findings per list and reason', 11);
  if (!audit.findings) {
    paragraph(doc, 'This audit has no findings: it has not been reconciled.', { size: 9.5, colour: GREY });
    return;
  }
  for (const list of LISTS) listSummary(doc, data, list);
  notAdded(doc, data);
}

/** Undeclared crawled pages the Add list left out, bucket by bucket, each explained. */
function notAdded(doc: Doc, data: PdfReportData): void {
  const excluded = data.audit.findings?.addExcluded;
  if (!excluded) return;
  heading(doc, 'Not added: crawled pages the Add list leaves out', 11);
  for (const bucket of Object.keys(EXCLUDED_INFO) as (keyof typeof EXCLUDED_INFO)[]) {
    countLine(doc, EXCLUDED_INFO[bucket].label, excluded[bucket], 12);
    definition(doc, EXCLUDED_INFO[bucket], 12);
  }
}

// ── Lists ────────────────────────────────────────────────────────────────────────────────────────

const COLUMNS: Column[] = [
  { title: 'URL', width: 255 },
  { title: 'Reason', width: 100 },
  { title: 'Decision', width: 55 },
  { title: 'Decided by', width: 89 },
];
/** With a spot-check, each row's verdict in it too (the URL gives up the room). */
const COLUMNS_WITH_VERDICT: Column[] = [
  { title: 'URL', width: 210 },
  { title: 'Reason', width: 95 },
  { title: 'Decision', width: 50 },
  { title: 'Decided by', width: 79 },
  { title: 'Live check', width: 65 },
];

async function listRows(doc: Doc, rows: PdfListRows, withVerdict: boolean): Promise<void> {
  const columns = withVerdict ? COLUMNS_WITH_VERDICT : COLUMNS;
  heading(doc, `${listLabel(rows.list)} list: ${formatCount(rows.total)} rows`);
  paragraph(doc, LIST_HINTS[rows.list], { size: 9, colour: GREY, gap: 2 });
  paragraph(
    doc,
    `In id order. This PDF shows at most ${formatCount(PDF_ROWS_PER_LIST)} rows per list, each URL on one line.`,
    { size: 9, colour: GREY, gap: 6 },
  );
  let shown = 0;
  for await (const page of rows.pages()) {
    // The reader went away (the stream was destroyed): read no more rows.
    if ((doc as unknown as Readable).destroyed) return;
    if (shown === 0) {
      ensureSpace(doc, ROW_HEIGHT * 3);
      tableHeader(doc, columns);
    }
    for (const finding of page.rows) {
      if (doc.y + ROW_HEIGHT > bottom(doc)) {
        doc.addPage();
        paragraph(doc, `${listLabel(rows.list)} list (continued)`, { size: 9, colour: GREY, gap: 4 });
        tableHeader(doc, columns);
      }
      const verdict = page.verdicts.get(finding.id);
      // Text only: a stored URL is never a link here (a javascript: or data: location stays inert).
      tableRow(doc, columns, [
        finding.url,
        reasonInfo(finding.reason).label,
        decisionLabel(finding.decision),
        finding.decidedBy ?? '—',
        verdict ? verdictLabel(verdict) : '—',
      ]);
      shown++;
    }
  }
  if (shown === 0) {
    paragraph(doc, 'Nothing in this list.', { size: 9.5, colour: GREY });
    return;
  }
  const more = rows.total - shown;
  if (more > 0) {
    doc.y += 4;
    paragraph(doc, `and ${formatCount(more)} more rows — export the CSV from the app for all of them`, {
      size: 9,
      colour: GREY,
    });
  }
}

export interface PdfOptions {
  /** Deflate the page streams (pdfkit's default). */
  compress?: boolean;
}

/**
 * The report as a stream of PDF bytes, produced while it is read: pdfkit pushes each finished page, and
 * the rows are read as they are drawn. A failure half way destroys the stream with the error.
 */
export function reportPdfStream(data: PdfReportData, { compress = true }: PdfOptions = {}): Readable {
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
  const draw = async () => {
    paragraph(doc, 'Sitemap audit report', { size: 20, bold: true, gap: 4 });
    paragraph(doc, audit.name, { size: 14, bold: true, gap: 2 });
    paragraph(doc, `Generated ${utcDateTime(data.generatedAt.toISOString())}`, { size: 9.5, colour: GREY });
    rule(doc);
    summary(doc, data);
    if (data.audit.findings) {
      // A page of its own for a run's figures and rows; "none was run" is one line under the summary.
      if (data.spotCheck) doc.addPage();
      spotCheckSection(doc, data.spotCheck, data.spotItems);
    }
    // Search Console's gaps: a page of their own, or the one line saying nothing was imported.
    if (data.gsc) doc.addPage();
    gscSection(doc, data.gsc, REPORT_GSC_ROWS);
    for (const rows of data.lists) {
      if ((doc as unknown as Readable).destroyed) return;
      doc.addPage();
      await listRows(doc, rows, data.spotCheck !== null);
    }
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
