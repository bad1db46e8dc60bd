// Shapes of findings (the reconciliation's prune / add / held lists), their filters, decisions and export.
import { z } from 'zod';
import { INT4_MAX, zText } from '@/lib/core/text';
import { GSC_FILTERS, GSC_MATCHES } from '@/lib/findings/evidence/gsc';
import type { GscBucket } from '@/lib/findings/evidence/gsc-reasons';
import { VERDICT_FILTERS } from '@/lib/findings/evidence/live';
import type { Hop, LiveError, Verdict } from '@/lib/spot-check/types';
import type { FindingsByFileItem } from './chart-data';

export const LISTS = ['prune', 'add', 'held'] as const;
export type FindingList = (typeof LISTS)[number];

export const DECISIONS = ['pending', 'approved', 'rejected'] as const;
export type Decision = (typeof DECISIONS)[number];

/** Reasons, in precedence order within each list (the first that applies is `reason`). */
export const PRUNE_REASONS = [
  'unreached_by_crawl',
  'url_variant',
  'blocked_by_robots',
  'no_response',
  'http_4xx_5xx', // stands for http_<status>: http_404, http_410, http_503, ...
  'redirects',
  'non_canonical',
  'noindex',
] as const;
export const HELD_REASONS = [
  'newer_than_crawl',
  'section_not_crawled',
  'crawl_mismatch',
  'server_error',
  'canonical_conflict',
  'canonical_pattern',
] as const;
export const ADD_REASONS = ['reachable_not_declared'] as const;

/** Facts beside the reasons that SEOs look for (docs/reconciliation.md, "Signals"). */
export const SIGNALS = [
  'multi_file',
  'redirect_canonical_conflict',
  'canonical_chain',
  'variant_canonicalised',
  // An unreached_by_crawl row the site's previous complete audit had unreached too (lib/sites/settle.ts).
  'unreached_confirmed',
] as const;
export type FindingSignal = (typeof SIGNALS)[number];

/** Sort keys; `-` is descending. Rows without the value (lastmod, status, depth, inlinks) come last either way. */
export const SORTS = [
  'id',
  'url',
  '-url',
  'lastmod',
  '-lastmod',
  'status',
  '-status',
  'depth',
  '-depth',
  'inlinks',
  '-inlinks',
  'reason',
  '-reason',
  'decision',
  '-decision',
] as const;
export type FindingSort = (typeof SORTS)[number];

/** Optional text where an empty value means "not given" (as it arrives from a query string). */
const optionalText = (max: number) =>
  zText()
    .trim()
    .max(max)
    .transform((v) => (v === '' ? undefined : v))
    .optional();

/** An empty query-string value is "not given". */
const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** Filters shared by the list endpoint, bulk decisions and export. */
export const ZFindingFilter = z
  .object({
    list: z.enum(LISTS),
    reason: optionalText(64),
    decision: z.enum(DECISIONS).optional(),
    q: optionalText(500),
    host: optionalText(255),
    pathPrefix: optionalText(1000),
    /** A sitemap file id: rows it declares (alone or with other files). */
    file: z.preprocess(blankIsAbsent, z.coerce.number().int().positive().max(INT4_MAX).optional()),
    signal: z.preprocess(blankIsAbsent, z.enum(SIGNALS).optional()),
    /** The latest finished spot-check's verdict (lib/findings/evidence/live.ts), `confirming` or `unchecked`. */
    verdict: z.preprocess(blankIsAbsent, z.enum(VERDICT_FILTERS).optional()),
    /** The key's current Search Console state (lib/findings/evidence/gsc-current.ts): indexed, not_indexed, unknown or a
     * bucket. `list=prune&gsc=indexed` is "prune with care": rows we would prune that Google has indexed. */
    gsc: z.preprocess(blankIsAbsent, z.enum(GSC_FILTERS).optional()),
    /** With a bucket in `gsc`: the bucket names one of the row's reasons (agrees) or none (disagrees). */
    gscMatch: z.preprocess(blankIsAbsent, z.enum(GSC_MATCHES).optional()),
  })
  .strict();
export type TFindingFilter = z.infer<typeof ZFindingFilter>;

export const ZFindingQuery = ZFindingFilter.extend({
  sort: z.enum(SORTS).default('id'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  // A cursor carries the last row's sort value, a URL when sorting by url: room for long ones (the query
  // string as a whole is capped at 16 KiB by lib/core/params.ts).
  cursor: optionalText(16_000),
});
export type TFindingQuery = z.infer<typeof ZFindingQuery>;

export const ZDecisionRequest = z
  .object({
    decision: z.enum(DECISIONS),
    // Finding ids are int4: a larger one cannot exist and would fail the cast.
    ids: z.array(z.number().int().positive().max(INT4_MAX)).min(1).max(10_000).optional(),
    filter: ZFindingFilter.optional(),
    /** A filter decision changes only pending rows unless this is true (ids change whatever they hold). */
    override: z.boolean().default(false),
    note: zText().trim().max(2000).optional(),
  })
  .strict()
  .refine((v) => (v.ids === undefined) !== (v.filter === undefined), {
    message: 'give either ids or filter, not both',
  });
export type TDecisionRequest = z.infer<typeof ZDecisionRequest>;

/** A yes/no query-string flag: `1`/`true` or `0`/`false` (absent: no). */
const queryFlag = z.preprocess(
  blankIsAbsent,
  z
    .enum(['1', 'true', '0', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
);

/** The export takes the list's filters; its `decision` defaults to approved and may be `all`. */
export const ZExportQuery = ZFindingFilter.extend({
  decision: z.enum([...DECISIONS, 'all']).default('approved'),
  format: z.enum(['csv', 'jsonl']).default('csv'),
  /** Prepend a UTF-8 byte order mark to the CSV (Excel reads the file as UTF-8 then). */
  bom: queryFlag,
}).strict();
export type TExportQuery = z.infer<typeof ZExportQuery>;

/** `GET /findings/reasons`: the list's filters; a `reason` is accepted and ignored (every reason is counted). */
export const ZReasonCountsQuery = ZFindingFilter;

/** `GET /decisions/preview`: the decision to apply, and the filter it would apply to. The filter's own
 * decision (rows that have it now) is `filterDecision`, since `decision` names the one to apply. */
export const ZDecisionPreviewQuery = ZFindingFilter.omit({ decision: true })
  .extend({
    decision: z.enum(DECISIONS),
    filterDecision: z.preprocess(blankIsAbsent, z.enum(DECISIONS).optional()),
    override: queryFlag,
  })
  .strict();
export type TDecisionPreviewQuery = z.infer<typeof ZDecisionPreviewQuery>;

export interface DecisionLogEntry {
  from: Decision;
  to: Decision;
  by: string;
  at: string;
  note: string | null;
}

export interface SitemapFileRef {
  id: number;
  url: string | null;
  uploadName: string | null;
}

export interface FindingTarget {
  kind: 'redirect' | 'canonical' | 'variant';
  url: string;
  /** Its own crawl status when it was crawled (a variant's is not kept: null). */
  status: number | null;
}

/** What the latest finished spot-check said of a row (lib/findings/evidence/live.ts). */
export interface FindingSpotCheck {
  verdict: Verdict;
  /** The reason the live answer gives now, for `changed`. */
  liveReason: string | null;
  finalStatus: number | null;
  checkedAt: string;
  runId: string;
}

/** The same in the detail, with the evidence: every hop, the final page's signals and any error. */
export interface FindingSpotCheckDetail extends FindingSpotCheck {
  chain: Hop[];
  noindex: boolean;
  canonical: string | null;
  contentType: string | null;
  ms: number;
  error: LiveError | null;
  explanation: string;
}

/** What Search Console says of a row's key now (lib/findings/evidence/gsc-current.ts): the latest import that lists it. */
export interface FindingGsc {
  state: 'indexed' | 'not_indexed';
  /** The issue as Search Console wrote it ("Page with redirect"); null for indexed pages. */
  reason: string | null;
  bucket: GscBucket | null;
  lastCrawled: string | null;
  /** The export that said it: a page-indexing drilldown or a Performance pages table. */
  source: 'drilldown' | 'performance' | 'inspection';
  /** The bucket names one of the row's reasons (true) or none (false); null for indexed pages and for the
   * buckets only Google can tell (crawled or discovered but not indexed, duplicates, other). */
  agrees: boolean | null;
}

/** The same in the detail, with the import it came from. */
export interface FindingGscDetail extends FindingGsc {
  url: string;
  /** The Metadata's "Sitemap" of the export: All known pages, All submitted pages or a sitemap URL. */
  scope: string | null;
  importId: string;
  importedAt: string;
}

export interface FindingDto {
  id: number;
  url: string;
  list: FindingList;
  reason: string;
  /** Every rule that applies, first = reason. */
  reasons: string[];
  /** Reason-specific facts: redirect target and its status, canonical and whether it is declared, variant URL, ... */
  evidence: Record<string, unknown>;
  /** multi_file, redirect_canonical_conflict, canonical_chain, variant_canonicalised, unreached_confirmed
   * (SIGNALS). */
  signals: string[];
  status: number | null;
  canonical: string | null;
  lastmod: string | null;
  /** Crawl depth and (unique) inlinks, when the crawl export has them. */
  depth: number | null;
  inlinks: number | null;
  /** What the reason points to: the redirect target, the canonical or the crawled variant (see target.ts). */
  target: FindingTarget | null;
  /** The sitemap file of the URL shown (the last declaring entry). */
  sitemapFile: SitemapFileRef | null;
  /** Every sitemap file declaring the URL, in id order (one when only one does; none for add rows). */
  sitemapFiles: SitemapFileRef[];
  decision: Decision;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  /** The latest finished spot-check of the row; null when none checked it. */
  spotCheck: FindingSpotCheck | null;
  /** What Search Console says of the row's key; null when no import names it. */
  gsc: FindingGsc | null;
}

export interface FindingPage {
  items: FindingDto[];
  nextCursor: string | null;
  total: number;
  /** What the audit (not this page) has to show per row, so the review's Live and Search Console
   * columns stay put from page to page and filter to filter: `live` once a finished spot-check run
   * checked some row, `gsc` once a Search Console import succeeded or a URL was inspected. */
  columns: { live: boolean; gsc: boolean };
}

/** `GET /audits/{id}/findings/{findingId}`: one finding and the log of its decisions. */
export type FindingDetailDto = Omit<FindingDto, 'spotCheck' | 'gsc'> & {
  spotCheck: FindingSpotCheckDetail | null;
  gsc: FindingGscDetail | null;
  history: DecisionLogEntry[];
};

/** `GET /audits/{id}/findings/by-file`: per sitemap file, its findings by reason. */
export interface FindingsByFileDto {
  items: FindingsByFileItem[];
}

/** `POST /audits/{id}/decisions`: what the decision did to the rows it was given or matched. */
export interface DecisionsRecordedDto {
  /** Rows that changed to the decision. */
  updated: number;
  /** Decided rows a filter decision left alone (always 0 with override or ids). */
  skipped: number;
  /** Rows that already had this decision. */
  unchanged: number;
}

/** `GET /audits/{id}/decisions/preview`: what the same filter decision would do, changing nothing. */
export interface DecisionPreviewDto {
  willChange: number;
  willSkip: number;
  alreadySet: number;
  /** The matching rows by their decision now (for "1 rejected row stays rejected"). */
  byDecision: Record<Decision, number>;
}

/** `GET /audits/{id}/findings/reasons`: the list's rows per reason under every filter but the reason. */
export interface ReasonCountsDto {
  list: FindingList;
  total: number;
  byReason: Record<string, number>;
}

export interface ListSummary {
  total: number;
  byReason: Record<string, number>;
}

export interface FindingsSummary {
  prune: ListSummary;
  add: ListSummary;
  held: ListSummary;
}

/** What the audit page shows about its findings (null until reconciliation has run). */
export interface FindingsOverview extends FindingsSummary {
  decisions: Record<FindingList, Record<Decision, number>>;
  addExcluded: TAddExcluded;
  /** The hosts behind `addExcluded.otherHost`, most pages first (up to 10), each with one URL. */
  otherHosts: TOtherHost[];
  crawlTime: string | null;
  reconciledAt: string;
  /** False while the review indexes are still being built (filters and sorts work, more slowly). */
  indexesReady: boolean;
}

// ── The audit's findings summary ─────────────────────────────────────────────────────────────────

/** One row of the per-file chart (GET /findings/by-file); a null fileId is the "other files" bucket. */
export const ZFindingsByFileItem = z.object({
  fileId: z.number().int().nullable(),
  url: z.string().nullable(),
  uploadName: z.string().nullable(),
  byReason: z.record(z.string(), z.number().int().nonnegative()),
});

const count = z.number().int().nonnegative();

/** Undeclared crawled pages the add list left out, by why, in the order the rule asks (another host,
 * blocked, non-200, non-HTML resources, canonicalised, noindex). Audits reconciled before `otherHost`,
 * `nonHtml` and `blocked` were counted apart read as 0 for them. */
export const ZAddExcluded = z.object({
  otherHost: count.default(0),
  blocked: count.default(0),
  non200: count,
  nonHtml: count.default(0),
  canonicalised: count,
  noindex: count,
});
export type TAddExcluded = z.infer<typeof ZAddExcluded>;

/** A host whose crawled pages are not on the add list because the sitemap declares no URL on it. */
export const ZOtherHost = z.object({ host: z.string(), n: count, example: z.string() });
export type TOtherHost = z.infer<typeof ZOtherHost>;

/**
 * What the reconcile job stores on the audit (`audits.findings_summary`); the review-index job adds
 * `indexedAt` (Postgres's own timestamp format, hence any ISO offset). Every reconcile so far has written
 * all the other fields in this shape; `indexedAt` is absent until the indexes are built.
 */
export const ZFindingsSummary = z.object({
  /** The crawl time the reconcile judged by (the option, else the newest crawled_at), or null. */
  crawlTime: z.iso.datetime({ offset: true }).nullable(),
  declaredKeys: z.number().int(),
  crawledKeys: z.number().int(),
  matchedKeys: z.number().int(),
  /** Undeclared crawled pages the add list left out, by why. */
  addExcluded: ZAddExcluded,
  /** The hosts of those left out as another site's (`otherHost`), most pages first, up to 10. */
  otherHosts: z.array(ZOtherHost).optional(),
  byFile: z.array(ZFindingsByFileItem),
  indexedAt: z.iso.datetime({ offset: true }).optional(),
});
export type TFindingsSummary = z.infer<typeof ZFindingsSummary>;
