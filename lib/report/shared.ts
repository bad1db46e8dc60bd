// The shared, read-only report of one audit (`/r/<token>`): a share token resolves to its audit (or to
// nothing: unknown, revoked and expired links look the same), and the page and the PDF read only that
// audit's summary and findings through the existing data functions, its latest finished live
// spot-check (lib/report/data.ts): the run's figures, its first rows, and the verdict of each row shown,
// and its Search Console gaps per sitemap file (lib/gsc/gaps.ts).

import { getAudit } from '@/lib/audits/data';
import type { AuditDto } from '@/lib/audits/schema';
import { sharedAudit } from '@/lib/auth/data';
import { touchShare } from '@/lib/auth/mutations';
import { sha256 } from '@/lib/auth/secrets';
import { clipForDisplay } from '@/lib/core/display';
import { AppError } from '@/lib/core/errors';
import {
  prepareReasonsPerFile,
  prepareReasonsPerList,
  type ReasonsPerFileData,
  type ReasonsPerListData,
} from '@/lib/findings/chart-data';
import { type FindingList, type FindingPage, ZFindingQuery } from '@/lib/findings/schema';
import { sitemapGaps } from '@/lib/gsc/gaps';
import type { GscGapsDto } from '@/lib/gsc/gaps-shape';
import { findingsByFile, listFindings } from '@/lib/review/data';
import type { Verdict } from '@/lib/spot-check/types';
import {
  latestFinishedSpotCheck,
  type ReportSpotCheck,
  type ReportSpotItem,
  reportSpotItems,
  verdictsOf,
} from './data';

/** Rows per page of the report's lists. */
export const REPORT_PAGE_SIZE = 100;
/** Checked rows of the live spot-check the page and the PDF show (a default sample is 50; the rest is
 * counted, and in the app). */
export const REPORT_SPOT_ROWS = 100;

/** Sitemap files of the Search Console gap table the page and the PDF list (largest gaps first). */
export const REPORT_GSC_ROWS = 100;

/** A reason code (`http_404`, `unreached_by_crawl`): anything else filters nothing. */
const REASON_SHAPE = /^[a-z0-9_]{1,64}$/;

/** Share tokens are `sar_` + base64url; anything else is not looked up at all. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,200}$/;

export interface OpenShare {
  shareId: string;
  /** The name of the reviewer who created the link. */
  sharedBy: string;
  audit: AuditDto;
}

/** The audit a live share token opens; null for an unknown, revoked or expired token (indistinguishably). */
export async function openShare(token: string): Promise<OpenShare | null> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
  const share = await sharedAudit(sha256(token));
  if (!share) return null;
  const audit = await getAudit(share.auditId);
  // getAudit cuts the warnings' and errors' texts to the display bound (lib/core/display.ts).
  return audit ? { shareId: share.shareId, sharedBy: share.sharedBy, audit } : null;
}

/** Records a view of the link ("last viewed"); bookkeeping only, so a failure never blocks the report. */
export async function recordView(share: OpenShare): Promise<void> {
  await touchShare(share.shareId).catch(() => {});
}

// ── The page ─────────────────────────────────────────────────────────────────────────────────────

type SearchParams = Record<string, string | string[] | undefined>;

export interface ReportView {
  list: FindingList;
  /** One reason of the list, or every reason. */
  reason: string | undefined;
  /** A URL substring (case-insensitive), as the review's search. */
  q: string | undefined;
  cursor: string | undefined;
  /** 1-based position of the page's first row (carried in the links, for "rows 101–200"). */
  start: number;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The list, filters and page asked for in the search params. Anything invalid falls back: a bad list to
 * the prune list, a bad reason or search to none, a bad cursor to the first page. */
export function reportViewFrom(params: SearchParams): ReportView {
  const list = ZFindingQuery.shape.list.safeParse(first(params.list)).data ?? 'prune';
  const reason = ZFindingQuery.shape.reason.safeParse(first(params.reason)).data;
  const q = ZFindingQuery.shape.q.safeParse(first(params.q)).data;
  const cursor = ZFindingQuery.shape.cursor.safeParse(first(params.cursor)).data;
  const start = Number(first(params.start));
  return {
    list,
    reason: reason && REASON_SHAPE.test(reason) ? reason : undefined,
    q,
    cursor,
    start: cursor && Number.isSafeInteger(start) && start > 1 ? start : 1,
  };
}

/** The search string of a report link (relative to the `/r/<token>` page): the list, its filters, and the
 * page when past the first. */
export function reportHref(view: {
  list: FindingList;
  reason?: string | undefined;
  q?: string | undefined;
  cursor?: string | undefined;
  start?: number;
}): string {
  const params = new URLSearchParams({ list: view.list });
  if (view.reason) params.set('reason', view.reason);
  if (view.q) params.set('q', view.q);
  if (view.cursor) {
    params.set('cursor', view.cursor);
    if (view.start && view.start > 1) params.set('start', String(view.start));
  }
  return `?${params}`;
}

export interface ReportPageData {
  audit: AuditDto;
  view: ReportView;
  /** The rows of the selected list (null when the audit has no findings yet). */
  page: FindingPage | null;
  /** Link to the next page, null on the last one. */
  nextHref: string | null;
  perList: ReasonsPerListData;
  perFile: ReasonsPerFileData;
  /** The latest finished spot-check and its first REPORT_SPOT_ROWS rows (null and empty: none ran). */
  spotCheck: ReportSpotCheck | null;
  spotItems: ReportSpotItem[];
  /** That run's verdict of each row on the page it checked. */
  verdicts: Map<number, Verdict>;
  /** Search Console's gaps per sitemap file and the property's totals; null when nothing was imported. */
  gsc: GscGapsDto | null;
}

/** The audit's Search Console gaps, or null when nothing was imported or inspected. */
export async function gscOf(auditId: string): Promise<GscGapsDto | null> {
  const gaps = await sitemapGaps(auditId);
  return gaps.hasData ? gaps : null;
}

/** The latest finished spot-check and its first rows, or nothing. */
export async function spotCheckOf(
  auditId: string,
): Promise<{ spotCheck: ReportSpotCheck | null; spotItems: ReportSpotItem[] }> {
  const spotCheck = await latestFinishedSpotCheck(auditId);
  return { spotCheck, spotItems: spotCheck ? await reportSpotItems(spotCheck.runId, REPORT_SPOT_ROWS) : [] };
}

/** One page of one list of the shared audit, filtered by reason and URL search, in id order (keyset: a deep
 * page costs what the first does; a search is read filter-first, as the review's, lib/review/data.ts). */
async function findingsPage(
  auditId: string,
  view: ReportView,
): Promise<{ page: FindingPage; view: ReportView }> {
  const query = {
    list: view.list,
    reason: view.reason,
    q: view.q,
    sort: 'id' as const,
    limit: REPORT_PAGE_SIZE,
  };
  try {
    return { page: await listFindings(auditId, { ...query, cursor: view.cursor }), view };
  } catch (error) {
    // A tampered or stale cursor: show the first page rather than an error.
    if (!(error instanceof AppError) || error.code !== 'validation_failed' || !view.cursor) throw error;
    return { page: await listFindings(auditId, query), view: { ...view, cursor: undefined, start: 1 } };
  }
}

/** Everything the `/r/<token>` page shows; records the view. */
export async function loadReportPage(share: OpenShare, params: SearchParams): Promise<ReportPageData> {
  await recordView(share);
  const { audit } = share;
  const requested = reportViewFrom(params);
  const perList = prepareReasonsPerList(audit.findings);
  if (!audit.findings) {
    return {
      audit,
      view: requested,
      page: null,
      nextHref: null,
      perList,
      perFile: prepareReasonsPerFile([]),
      spotCheck: null,
      spotItems: [],
      verdicts: new Map(),
      gsc: await gscOf(audit.id),
    };
  }
  const [{ page, view }, files, { spotCheck, spotItems }, gsc] = await Promise.all([
    findingsPage(audit.id, requested),
    findingsByFile(audit.id),
    spotCheckOf(audit.id),
    gscOf(audit.id),
  ]);
  // One read for the page's rows, by the run's primary key.
  const verdicts = spotCheck
    ? await verdictsOf(
        spotCheck.runId,
        page.items.map((f) => f.id),
      )
    : new Map<number, Verdict>();
  const byFile = files.map((file) => ({
    ...file,
    url: clipForDisplay(file.url),
    uploadName: clipForDisplay(file.uploadName),
  }));
  const nextHref = page.nextCursor
    ? reportHref({ ...view, cursor: page.nextCursor, start: view.start + page.items.length })
    : null;
  return {
    audit,
    view,
    page,
    nextHref,
    perList,
    perFile: prepareReasonsPerFile(byFile, { top: 10 }),
    spotCheck,
    spotItems,
    verdicts,
    gsc,
  };
}

/** `<audit-name-slug>-report.pdf`: ASCII only, safe in a content-disposition header. */
export function reportFileName(auditName: string): string {
  const slug =
    auditName
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60)
      .replace(/-+$/, '') || 'audit';
  return `${slug}-report.pdf`;
}
