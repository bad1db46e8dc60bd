// The PDF's "Live spot-check" page: the audit's latest finished spot-check with the figures the app shows
// (when, rows, verdict counts, the stale-crawl warning in the app's words, the three shares with their 95 %
// interval and n), then its first checked rows: URL, reason, verdict, final status and the hop chain.
import { formatCount } from '@/lib/core/format';
import { reasonInfo } from '@/lib/findings/reasons';
import { verdictLabel } from '@/lib/spot-check/labels';
import type { Proportion } from '@/lib/spot-check/stats';
import { VERDICTS } from '@/lib/spot-check/stats';
import type { ReportSpotCheck, ReportSpotItem } from './data';
import { percentText, utcDateTime } from './format';
import {
  bottom,
  type Column,
  chainCell,
  columnLefts,
  contentWidth,
  type Doc,
  ensureSpace,
  GREY,
  heading,
  keyValues,
  paragraph,
  pdfSafe,
  ROW_HEIGHT,
  tableHeader,
  tableRow,
} from './pdf-text';

/** The app's title of the stale-crawl alert (spot-checks-summary.tsx); the message is the run's own. */
const STALE_TITLE = 'The crawl looks stale';

const SHARES: { name: string; key: 'rotRate' | 'redirectRatio' | 'orphanShare'; hint: string }[] = [
  { name: 'Rot rate', key: 'rotRate', hint: 'Declared URLs ending in a 4xx, of those that answered.' },
  { name: 'Redirect ratio', key: 'redirectRatio', hint: 'Declared URLs whose first answer is a redirect.' },
  {
    name: 'Orphan share',
    key: 'orphanShare',
    hint: 'URLs the crawl never fetched that are live pages (link them, do not prune).',
  },
];

const COLUMNS: Column[] = [
  { title: 'URL', width: 200 },
  { title: 'Reason', width: 95 },
  { title: 'Verdict', width: 66 },
  { title: 'Final', width: 30 },
  { title: 'Chain', width: 108 },
];

/** "12 % (95 % interval 5–20 %, n = 50)", as the app words a share. */
export function shareText(share: Proportion): string {
  if (share.n === 0) return '— (nothing measured, n = 0)';
  return `${percentText(share.value)} (95 % interval ${percentText(share.low)}–${percentText(share.high)}, n = ${formatCount(share.n)})`;
}

/** The warning in a ruled box, so it cannot be missed. */
function staleBox(doc: Doc, message: string): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  const text = pdfSafe(message);
  doc.font('Helvetica').fontSize(10);
  const height = 14 + doc.heightOfString(text, { width: width - 16 }) + 12;
  ensureSpace(doc, height + 6);
  const top = doc.y + 2;
  doc.rect(left, top, width, height).lineWidth(1.5).strokeColor('#b45309').stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(10.5)
    .fillColor('#000000')
    .text(STALE_TITLE, left + 8, top + 6, { width: width - 16 });
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(text, left + 8, doc.y + 1, { width: width - 16 });
  doc.y = top + height + 8;
}

function checkedRows(doc: Doc, run: ReportSpotCheck, items: ReportSpotItem[]) {
  heading(doc, 'Checked rows', 11);
  paragraph(
    doc,
    'In finding order, each URL on one line; the chain is the status of every response in order.',
    {
      size: 9,
      colour: GREY,
      gap: 6,
    },
  );
  ensureSpace(doc, ROW_HEIGHT * 3);
  tableHeader(doc, COLUMNS);
  for (const item of items) {
    if (doc.y + ROW_HEIGHT > bottom(doc)) {
      doc.addPage();
      paragraph(doc, 'Checked rows (continued)', { size: 9, colour: GREY, gap: 4 });
      tableHeader(doc, COLUMNS);
    }
    const y = doc.y;
    // Text only: a stored URL is never a link here.
    tableRow(doc, COLUMNS, [
      item.url,
      reasonInfo(item.reason).label,
      verdictLabel(item.verdict),
      item.finalStatus === null ? '—' : String(item.finalStatus),
    ]);
    const chain = COLUMNS.length - 1;
    chainCell(
      doc,
      item.chain.map((hop) => hop.status),
      columnLefts(doc, COLUMNS)[chain] ?? 0,
      y,
      COLUMNS[chain]?.width ?? 0,
    );
    doc.y = y + ROW_HEIGHT;
  }
  const more = run.rows - items.length;
  if (more > 0) {
    doc.y += 4;
    paragraph(
      doc,
      `and ${formatCount(more)} more checked rows — the audit's page in the app lists all of them`,
      {
        size: 9,
        colour: GREY,
      },
    );
  }
}

/** The section; with no finished run, one line saying so. */
export function spotCheckSection(doc: Doc, run: ReportSpotCheck | null, items: ReportSpotItem[]): void {
  heading(doc, 'Live spot-check');
  if (!run) {
    paragraph(doc, 'No live spot-check was run for this audit.', { size: 9.5, colour: GREY });
    return;
  }
  paragraph(
    doc,
    "What the live site answered for the rows the latest finished spot-check fetched, and whether the crawl's reason for each still holds.",
    { size: 9, colour: GREY, gap: 6 },
  );
  const { summary } = run;
  keyValues(doc, [
    ['Checked', utcDateTime(run.finishedAt ?? run.createdAt)],
    [
      'Rows checked',
      `${formatCount(run.rows)}${run.status === 'partial' ? ' (some could not be checked)' : ''}`,
    ],
    ['Verdicts', VERDICTS.map((v) => `${verdictLabel(v)}: ${formatCount(summary.byVerdict[v])}`).join(', ')],
  ]);
  if (summary.staleCrawl) staleBox(doc, summary.staleCrawl.message);
  heading(doc, 'Signals', 11);
  for (const share of SHARES) {
    keyValues(doc, [[share.name, shareText(summary[share.key])]]);
    paragraph(doc, share.hint, { size: 8, colour: GREY, gap: 4 });
  }
  checkedRows(doc, run, items);
}
