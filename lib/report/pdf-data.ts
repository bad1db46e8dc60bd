// What the shared report's PDF holds, read through the share's audit only: the cover's facts (site, who
// shared it), the summary's chart data, the latest spot-check and Search Console gaps, and per list and
// reason the top rows with their evidence, decision and live verdict. Bounded whatever the audit holds: at
// most PDF_REASONS_PER_LIST reasons per list and PDF_ROWS_PER_REASON rows per reason, one reason's rows
// read at a time while the PDF is drawn, every stored text cut to the display bound.

import { clipForDisplay } from '@/lib/core/display';
import {
  prepareReasonsPerFile,
  prepareReasonsPerList,
  type ReasonsPerFileData,
  type ReasonsPerListData,
  rankReasons,
} from '@/lib/findings/chart-data';
import { type FindingDto, type FindingList, type FindingSort, LISTS } from '@/lib/findings/schema';
import type { GscGapsDto } from '@/lib/gsc/gaps-shape';
import { findingsByFile, listFindings } from '@/lib/review/data';
import type { Verdict } from '@/lib/spot-check/types';
import { type AuditSite, auditSite, type ReportSpotCheck, type ReportSpotItem, verdictsOf } from './data';
import { gscOf, type OpenShare, recordView, spotCheckOf } from './shared';

/** Rows of each reason the PDF shows; the link shows them all. 20 two-line rows fill about a page. */
export const PDF_ROWS_PER_REASON = 20;
/** Reasons per list with a section of their own (a list has a handful; http_<status> can make dozens). */
export const PDF_REASONS_PER_LIST = 12;

/**
 * The order of a reason's rows: the most-linked first (inlinks, from the crawl), since a broken or
 * redirecting page many pages link to matters most (equal counts: the last declared first, the keyset's
 * order, lib/review/keyset.ts). Pages the crawl never fetched
 * have no inlinks to rank by: sitemap order alone (and the reason's own index answers it at once).
 */
type PdfRowOrder = 'inlinks' | 'sitemap';
const UNCRAWLED_REASONS: ReadonlySet<string> = new Set(['unreached_by_crawl', 'section_not_crawled']);

function rowOrderOf(reason: string): PdfRowOrder {
  return UNCRAWLED_REASONS.has(reason) ? 'sitemap' : 'inlinks';
}

const SORT_OF: Record<PdfRowOrder, FindingSort> = { inlinks: '-inlinks', sitemap: 'id' };

export interface PdfReasonRows {
  reason: string;
  /** Rows with this reason in the list (the PDF shows at most PDF_ROWS_PER_REASON). */
  total: number;
  order: PdfRowOrder;
  /** The top rows and the latest spot-check's verdict of each, read when the section is drawn. */
  read: () => Promise<{ rows: FindingDto[]; verdicts: Map<number, Verdict> }>;
}

export interface PdfListSection {
  list: FindingList;
  total: number;
  reasons: PdfReasonRows[];
  /** Reasons past PDF_REASONS_PER_LIST: how many, and their rows in all. */
  folded: { reasons: number; rows: number };
}

export interface PdfReportData {
  audit: OpenShare['audit'];
  sharedBy: string;
  site: AuditSite;
  perList: ReasonsPerListData;
  perFile: ReasonsPerFileData;
  lists: PdfListSection[];
  spotCheck: ReportSpotCheck | null;
  spotItems: ReportSpotItem[];
  gsc: GscGapsDto | null;
  generatedAt: Date;
  /** The shared link the PDF was made from (the cover prints it: "the shared link shows them all" must
   * say where); null when not made from a request. */
  reportUrl: string | null;
}

function reasonRows(auditId: string, list: FindingList, reason: string, total: number, runId?: string) {
  const order = rowOrderOf(reason);
  return {
    reason,
    total,
    order,
    read: async () => {
      const page = await listFindings(auditId, {
        list,
        reason,
        sort: SORT_OF[order],
        limit: PDF_ROWS_PER_REASON,
      });
      const ids = page.items.map((f) => f.id);
      return { rows: page.items, verdicts: runId ? await verdictsOf(runId, ids) : new Map() };
    },
  };
}

/** The PDF's content; records the view. */
export async function loadPdfReport(
  share: OpenShare,
  generatedAt = new Date(),
  reportUrl: string | null = null,
): Promise<PdfReportData> {
  await recordView(share);
  const { audit } = share;
  const findings = audit.findings;
  const [site, files, { spotCheck, spotItems }, gsc] = await Promise.all([
    auditSite(audit.id),
    findings ? findingsByFile(audit.id) : Promise.resolve([]),
    findings ? spotCheckOf(audit.id) : Promise.resolve({ spotCheck: null, spotItems: [] }),
    gscOf(audit.id),
  ]);
  const lists: PdfListSection[] = findings
    ? LISTS.map((list) => {
        const ranked = rankReasons(findings[list].byReason);
        const shown = ranked.slice(0, PDF_REASONS_PER_LIST);
        const rest = ranked.slice(shown.length);
        return {
          list,
          total: findings[list].total,
          reasons: shown.map(([reason, n]) => reasonRows(audit.id, list, reason, n, spotCheck?.runId)),
          folded: { reasons: rest.length, rows: rest.reduce((sum, [, n]) => sum + n, 0) },
        };
      })
    : [];
  const byFile = files.map((file) => ({
    ...file,
    url: clipForDisplay(file.url),
    uploadName: clipForDisplay(file.uploadName),
  }));
  return {
    audit,
    sharedBy: share.sharedBy,
    site,
    perList: prepareReasonsPerList(findings),
    perFile: prepareReasonsPerFile(byFile, { top: 10 }),
    lists,
    spotCheck,
    spotItems,
    gsc,
    generatedAt,
    reportUrl,
  };
}
