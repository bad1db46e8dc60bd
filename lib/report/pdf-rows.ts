// The PDF's lists: per list its counts and decisions, then a section per reason with the reason's
// definition and usual fix (the words the app uses, lib/findings/reasons.ts), its top rows with their
// evidence (HTTP status, target or canonical, depth, inlinks) and decision, and how many rows were left
// out, which the shared link shows in full. Each row is two lines: the URL and its numbers, then the
// evidence sentence and the live check.
import type { Readable } from 'node:stream';
import { countText, formatCount } from '@/lib/core/format';
import { decisionLabel, LIST_HINTS, listLabel } from '@/lib/findings/format';
import { reasonInfo } from '@/lib/findings/reasons';
import type { FindingDto } from '@/lib/findings/schema';
import { verdictLabel } from '@/lib/spot-check/labels';
import type { Verdict } from '@/lib/spot-check/types';
import { shortEvidence } from './format';
import { PDF_ROWS_PER_REASON, type PdfListSection, type PdfReasonRows } from './pdf-data';
import {
  BLACK,
  bottom,
  type Column,
  columnLefts,
  contentWidth,
  type Doc,
  ensureSpace,
  fitText,
  GREY,
  heading,
  paragraph,
  tableHeader,
  tableRow,
} from './pdf-text';

const COLUMNS: Column[] = [
  { title: 'URL', width: 262 },
  { title: 'Status', width: 36 },
  { title: 'Depth', width: 32 },
  { title: 'Inlinks', width: 38 },
  { title: 'Decision', width: 131 },
];
const ROW = 24;
const LINE = 10.5;
const SEPARATOR = '#e3e6ea';
/** The evidence line: 8 points in a dark grey, readable on paper and on a phone's PDF viewer (7.5 points
 * in #555 was hard to read), still set apart from the URL line above it. */
const EVIDENCE_SIZE = 8;
const EVIDENCE_COLOUR = '#333333';

const ORDER_TEXT = {
  inlinks: 'Most-linked first (inlinks in the crawl); among equal counts, the last declared first.',
  sitemap: 'In sitemap order (the crawl never fetched these pages, so there are no inlinks to rank by).',
  unranked: 'The crawl export gives no inlinks for these rows: the last declared first.',
} as const;

function numberOrDash(value: number | null): string {
  return value === null ? '—' : formatCount(value);
}

function decisionText(finding: FindingDto): string {
  const label = decisionLabel(finding.decision);
  return finding.decidedBy && finding.decision !== 'pending' ? `${label} by ${finding.decidedBy}` : label;
}

/** The second line: what the crawl saw, and the live check's verdict when one ran. */
function evidenceText(finding: FindingDto, verdict: Verdict | undefined): string {
  const parts = [shortEvidence(finding, 240)];
  if (verdict) parts.push(`Live check: ${verdictLabel(verdict)}`);
  if (finding.note) parts.push(`Note: ${finding.note}`);
  return parts.join(' · ');
}

function row(doc: Doc, finding: FindingDto, verdict: Verdict | undefined): void {
  const y = doc.y;
  // Text only: a stored URL is never a link here (a javascript: or data: location stays inert).
  tableRow(doc, COLUMNS, [
    finding.url,
    numberOrDash(finding.status),
    numberOrDash(finding.depth),
    numberOrDash(finding.inlinks),
    decisionText(finding),
  ]);
  const left = columnLefts(doc, COLUMNS)[0] ?? doc.page.margins.left;
  doc.font('Helvetica').fontSize(EVIDENCE_SIZE).fillColor(EVIDENCE_COLOUR);
  doc.text(fitText(doc, evidenceText(finding, verdict), contentWidth(doc) - 10), left + 8, y + LINE + 1, {
    lineBreak: false,
  });
  doc
    .moveTo(left, y + ROW - 1)
    .lineTo(left + contentWidth(doc), y + ROW - 1)
    .lineWidth(0.4)
    .strokeColor(SEPARATOR)
    .stroke();
  doc.y = y + ROW;
}

async function reasonSection(doc: Doc, list: PdfListSection, section: PdfReasonRows): Promise<void> {
  const info = reasonInfo(section.reason);
  ensureSpace(doc, 110);
  heading(doc, `${info.label}: ${formatCount(section.total)} ${section.total === 1 ? 'row' : 'rows'}`, 11.5);
  paragraph(doc, info.definition, { size: 9, gap: 1 });
  paragraph(doc, `Usual fix: ${info.fix}`, { size: 9, colour: GREY, gap: 3 });
  const { rows, verdicts } = await section.read();
  // The reader went away (the stream was destroyed): draw no more.
  if ((doc as unknown as Readable).destroyed) return;
  const shown = Math.min(rows.length, PDF_ROWS_PER_REASON);
  // A crawl export without inlinks leaves nothing to rank by: say what the order then is.
  const order =
    section.order === 'inlinks' && rows.every((f) => f.inlinks === null) ? 'unranked' : section.order;
  paragraph(doc, `${section.total > shown ? `The top ${formatCount(shown)}. ` : ''}${ORDER_TEXT[order]}`, {
    size: 8,
    colour: GREY,
    gap: 4,
  });
  tableHeader(doc, COLUMNS);
  for (const finding of rows) {
    if (doc.y + ROW > bottom(doc)) {
      doc.addPage();
      paragraph(doc, `${listLabel(list.list)} · ${info.label} (continued)`, {
        size: 9,
        colour: GREY,
        gap: 4,
      });
      tableHeader(doc, COLUMNS);
    }
    row(doc, finding, verdicts.get(finding.id));
  }
  const more = section.total - rows.length;
  if (more > 0) {
    doc.y += 3;
    paragraph(
      doc,
      `${formatCount(more)} more ${more === 1 ? 'row' : 'rows'} with this reason ${more === 1 ? 'is' : 'are'} not in this PDF: the shared link shows them all (${listLabel(list.list)} tab, filter "${info.label}").`,
      { size: 8.5, colour: BLACK, gap: 4 },
    );
  }
}

/** A list: its total and decisions, then its reasons, each on from a fresh page when little room is left. */
export async function listSection(
  doc: Doc,
  list: PdfListSection,
  decisions: { approved: number; rejected: number; pending: number },
): Promise<void> {
  heading(
    doc,
    `${listLabel(list.list)} list: ${formatCount(list.total)} ${list.total === 1 ? 'row' : 'rows'}`,
    15,
  );
  paragraph(doc, LIST_HINTS[list.list], { size: 9.5, colour: GREY, gap: 2 });
  paragraph(
    doc,
    `Decisions: ${formatCount(decisions.approved)} approved, ${formatCount(decisions.rejected)} rejected, ${formatCount(decisions.pending)} pending.`,
    { size: 9.5, gap: 4 },
  );
  if (list.reasons.length === 0) {
    paragraph(doc, 'Nothing in this list.', { size: 9.5, colour: GREY });
    return;
  }
  for (const section of list.reasons) {
    if ((doc as unknown as Readable).destroyed) return;
    await reasonSection(doc, list, section);
  }
  if (list.folded.reasons > 0) {
    doc.y += 4;
    paragraph(
      doc,
      `${countText(list.folded.reasons, 'smaller reason')} (${countText(list.folded.rows, 'row')}) ${list.folded.reasons === 1 ? 'has' : 'have'} no section here: the shared link lists ${list.folded.reasons === 1 ? 'it' : 'them'} (${listLabel(list.list)} tab).`,
      { size: 9, gap: 4 },
    );
  }
}
