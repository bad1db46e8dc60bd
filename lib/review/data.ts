// Reads of findings: keyset pages with exact totals, reason counts under the other filters, what a filter
// decision would do, one finding with its history, the audit's counts and findings summary. (The exports'
// streaming queries are in export/data.ts; rows become DTOs in dto.ts.)
import 'server-only';
import { displaySql } from '@/lib/core/display';
import { AppError } from '@/lib/core/errors';
import { db, pool } from '@/lib/db/client';
import {
  type Decision,
  type DecisionLogEntry,
  type DecisionPreviewDto,
  type FindingDetailDto,
  type FindingList,
  type FindingPage,
  type FindingsOverview,
  type ReasonCountsDto,
  type TFindingFilter,
  type TFindingQuery,
  type TFindingsSummary,
  ZFindingsSummary,
} from '@/lib/findings/schema';
import type { FindingRow } from '@/lib/findings/types';
import { columnsNarrow, presentColumns, readColumns } from './columns';
import { decodeCursor, encodeCursor } from './cursor';
import { previewOf } from './decision-rule';
import { toFindingDto } from './dto';
import { countsFilterSql, filterSql, isCountable } from './filter-sql';
import { cursorAfter, keyset } from './keyset';

/** The columns of a FindingRow, read from FINDING_FROM; `cut` wraps each stored text (display.ts). */
function findingColumns(cut: (expression: string) => string): string {
  return `f.id, ${cut('f.url')} AS url, f.list, f.reason, f.reasons, f.status,
  ${cut('f.canonical')} AS canonical, f.lastmod, ${cut('f.crawled_url')} AS crawled_url,
  ${cut('f.redirect_url')} AS redirect_url, f.target_status, f.canonical_declared,
  ${cut('f.variant_url')} AS variant_url, ${cut('f.section')} AS section, f.occurrences, f.indexable,
  f.noindex, f.blocked_by_robots, f.depth, f.crawled_at, f.inlinks, f.file_ids, f.canonical_status, f.signals,
  f.pattern_count, (SELECT array_agg(${cut('x')}) FROM unnest(f.pattern_examples) x) AS pattern_examples,
  f.variant_status, f.sitemap_file_id, ${cut('sf.url')} AS file_url, ${cut('sf.upload_name')} AS file_upload_name,
  CASE WHEN cardinality(f.file_ids) > 0 THEN (
    SELECT json_agg(json_build_object('id', s.id, 'url', ${cut('s.url')}, 'uploadName', ${cut('s.upload_name')})
                    ORDER BY s.id)
      FROM sitemap_files s WHERE s.id = ANY (f.file_ids)) END AS files,
  f.decision, ${cut('f.decided_by')} AS decided_by, f.decided_at, ${cut('f.note')} AS note`;
}

/** What pages, the API and the report read: stored texts cut to the display bound in SQL, so a page of
 * rows is bounded whatever the audit holds. */
export const FINDING_COLUMNS = findingColumns(displaySql);
/** The stored values whole: the JSONL export's (read in byte-bounded batches, export/data.ts). */
export const FINDING_COLUMNS_WHOLE = findingColumns((expression) => expression);
export const FINDING_FROM = 'findings f LEFT JOIN sitemap_files sf ON sf.id = f.sitemap_file_id';

/**
 * The audit's findings summary, parsed; null when the audit has none (not reconciled). A stored value
 * that does not parse is a bug, not old data (the schema takes everything the reconcile has written):
 * it is logged and read as absent rather than failing the audit page.
 */
function parseSummary(auditId: string, value: unknown): TFindingsSummary | null {
  if (value === null || value === undefined) return null;
  const parsed = ZFindingsSummary.safeParse(value);
  if (parsed.success) return parsed.data;
  console.error(`[findings] audit ${auditId}: findings_summary does not parse`, parsed.error.issues);
  return null;
}

/** The audit's findings summary; null when there is no such audit or it has none. */
export async function findingsSummaryOf(auditId: string): Promise<TFindingsSummary | null> {
  const { rows } = await pool().query<{ summary: unknown }>(
    // The per-file rows name each file by URL: cut to the display bound here, like every stored text read.
    `SELECT CASE WHEN jsonb_typeof(findings_summary->'byFile') = 'array'
              THEN jsonb_set(findings_summary, '{byFile}', coalesce((
                SELECT jsonb_agg(CASE WHEN jsonb_typeof(b->'url') = 'string'
                                      THEN b || jsonb_build_object('url', to_jsonb(${displaySql(`b->>'url'`)}))
                                      ELSE b END ORDER BY i)
                  FROM jsonb_array_elements(findings_summary->'byFile') WITH ORDINALITY x(b, i)), '[]'::jsonb))
              ELSE findings_summary END AS summary
       FROM audits WHERE id = $1`,
    [auditId],
  );
  return parseSummary(auditId, rows[0]?.summary);
}

/** The crawl time the reconcile used: evidence of every newer_than_crawl finding. */
export async function crawlTimeOf(auditId: string): Promise<string | null> {
  return (await findingsSummaryOf(auditId))?.crawlTime ?? null;
}

async function countMatching(auditId: string, filter: TFindingFilter): Promise<number> {
  if (isCountable(filter)) {
    const c = countsFilterSql(auditId, filter);
    const { rows } = await pool().query(
      `SELECT coalesce(sum(n), 0)::int AS n FROM finding_counts WHERE ${c.sql}`,
      c.params,
    );
    return rows[0].n;
  }
  const f = filterSql(auditId, filter);
  const { rows } = await pool().query(`SELECT count(*)::int AS n FROM findings f WHERE ${f.sql}`, f.params);
  return rows[0].n;
}

/** Up to this many matching rows, a page filtered by search, host, path, file, signal or verdict is read
 * filter-first (then sorted), not sort-first: a sort-order scan that filters would read past every
 * non-matching row when matches are rare or clustered. (Reason and decision filters have sort indexes of
 * their own.) */
const FILTER_FIRST_MAX = 50_000;

export async function listFindings(auditId: string, query: TFindingQuery): Promise<FindingPage> {
  const { sort, limit, cursor: cursorText, ...filter } = query;
  const cursor = decodeCursor(cursorText, sort);
  const f = filterSql(auditId, filter);
  const k = keyset(sort, cursor, f.params.length + 1);
  const crawlTimePromise = crawlTimeOf(auditId);
  const columnsPromise = presentColumns(auditId);
  const total = await countMatching(auditId, filter);
  const isNarrowing =
    Boolean(filter.q || filter.host || filter.pathPrefix || filter.file !== undefined || filter.signal) ||
    columnsNarrow(filter);
  const filterFirst = isNarrowing && total <= FILTER_FIRST_MAX;
  const found: FindingRow[] = [];
  for (const segment of k.segments) {
    const params = [...f.params, ...segment.params, limit + 1 - found.length];
    const n = `$${params.length}`;
    // Filter-first: the matching rows' sort keys are read through the filter's index and sorted, and only
    // the page's rows are then fetched whole.
    const sql = filterFirst
      ? `WITH m AS MATERIALIZED (
           SELECT f.id${k.column ? `, f.${k.column}` : ''} FROM findings f WHERE ${f.sql} AND ${segment.where}),
         page AS MATERIALIZED (SELECT * FROM m f ORDER BY ${k.order} LIMIT ${n})
         SELECT ${FINDING_COLUMNS} FROM page p JOIN ${FINDING_FROM} ON f.audit_id = $1 AND f.id = p.id ORDER BY ${k.order}`
      : `SELECT ${FINDING_COLUMNS} FROM ${FINDING_FROM} WHERE ${f.sql} AND ${segment.where} ORDER BY ${k.order} LIMIT ${n}`;
    const { rows } = await pool().query<FindingRow>(sql, params);
    found.push(...rows);
    if (found.length > limit) break;
  }
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  let nextCursor: string | null = null;
  // A cut URL's cursor carries the cut text (bounded). Sorted by URL, the next page then starts where the
  // cut text sorts, so only a row sharing the URL's first 2,048 characters could be passed over.
  if (found.length > limit && last) nextCursor = encodeCursor(cursorAfter(sort, last));
  const pageIds = rows.map((r) => r.id);
  const columns = await readColumns(auditId, pageIds);
  const crawlTime = await crawlTimePromise;
  return {
    items: rows.map((r) => toFindingDto(r, crawlTime, columns.values(r))),
    nextCursor,
    total,
    columns: await columnsPromise,
  };
}

/** The rows matching `filter`, counted per `column`: from finding_counts when only decision and host
 * narrow the filter (instant), else one GROUP BY over the findings. Columns with no rows are left out. */
async function countBy<C extends 'reason' | 'decision'>(
  auditId: string,
  filter: TFindingFilter,
  column: C,
): Promise<{ key: string; n: number }[]> {
  let sql: string;
  let params: unknown[];
  if (isCountable(filter)) {
    const c = countsFilterSql(auditId, filter);
    sql = `SELECT ${column} AS key, sum(n)::int AS n FROM finding_counts WHERE ${c.sql} GROUP BY ${column} HAVING sum(n) > 0`;
    params = c.params;
  } else {
    const f = filterSql(auditId, filter);
    sql = `SELECT f.${column} AS key, count(*)::int AS n FROM findings f WHERE ${f.sql} GROUP BY f.${column}`;
    params = f.params;
  }
  return (await pool().query<{ key: string; n: number }>(sql, params)).rows;
}

/** The list's rows per reason under every filter but the reason: what each reason chip would show. */
export async function reasonCounts(auditId: string, filter: TFindingFilter): Promise<ReasonCountsDto> {
  const { reason: _ignored, ...rest } = filter;
  const byReason: Record<string, number> = {};
  let total = 0;
  for (const row of await countBy(auditId, rest, 'reason')) {
    byReason[row.key] = row.n;
    total += row.n;
  }
  return { list: filter.list, total, byReason };
}

/** What a decision by this filter would change, skip and find already set (decision-rule.ts), changing
 * nothing: the matching rows counted per decision. */
export async function previewDecision(
  auditId: string,
  filter: TFindingFilter,
  decision: Decision,
  override: boolean,
): Promise<DecisionPreviewDto> {
  const rows = await countBy(auditId, filter, 'decision');
  return previewOf(
    Object.fromEntries(rows.map((r) => [r.key, r.n])),
    decision,
    !override,
    filter.list === 'held',
  );
}

export async function getFinding(auditId: string, id: number): Promise<FindingDetailDto | null> {
  const { rows } = await pool().query<FindingRow>(
    `SELECT ${FINDING_COLUMNS} FROM ${FINDING_FROM} WHERE f.audit_id = $1 AND f.id = $2`,
    [auditId, id],
  );
  const row = rows[0];
  if (!row) return null;
  const log = await db().decisionLog.findMany({
    where: { auditId, findingId: id },
    orderBy: { id: 'desc' },
    take: 200,
  });
  const columns = await readColumns(auditId, [id]);
  return {
    ...toFindingDto(row, await crawlTimeOf(auditId)),
    ...columns.details(row),
    history: log.map((l) => ({
      from: l.fromDecision as DecisionLogEntry['from'],
      to: l.toDecision as DecisionLogEntry['to'],
      by: l.decidedBy,
      at: l.decidedAt.toISOString(),
      note: l.note,
    })),
  };
}

/** Counts per list, reason and decision (instant: kept in step with every decision). */
export async function getFindingsOverview(auditId: string): Promise<FindingsOverview | null> {
  const audit = await db().audit.findUnique({
    where: { id: auditId },
    select: { reconciledAt: true, findingCounts: true },
  });
  if (!audit?.reconciledAt) return null;
  // Read apart, through the query that cuts its file URLs to the display bound.
  const summary = await findingsSummaryOf(auditId);
  const lists = ['prune', 'add', 'held'] as const;
  const overview: FindingsOverview = {
    prune: { total: 0, byReason: {} },
    add: { total: 0, byReason: {} },
    held: { total: 0, byReason: {} },
    decisions: {
      prune: { pending: 0, approved: 0, rejected: 0 },
      add: { pending: 0, approved: 0, rejected: 0 },
      held: { pending: 0, approved: 0, rejected: 0 },
    },
    addExcluded: summary?.addExcluded ?? {
      otherHost: 0,
      nonHtml: 0,
      blocked: 0,
      non200: 0,
      noindex: 0,
      canonicalised: 0,
    },
    otherHosts: summary?.otherHosts ?? [],
    crawlTime: summary?.crawlTime ?? null,
    reconciledAt: audit.reconciledAt.toISOString(),
    indexesReady: Boolean(summary?.indexedAt),
  };
  for (const c of audit.findingCounts) {
    const list = lists.find((l) => l === c.list);
    if (!list || c.n === 0) continue;
    overview[list].total += c.n;
    overview[list].byReason[c.reason] = (overview[list].byReason[c.reason] ?? 0) + c.n;
    const decision = c.decision as keyof FindingsOverview['decisions'][FindingList];
    overview.decisions[list][decision] += c.n;
  }
  return overview;
}

/** Reasons per sitemap file (the summary's chart data); empty when the audit has no summary. */
export async function findingsByFile(auditId: string): Promise<TFindingsSummary['byFile']> {
  return (await findingsSummaryOf(auditId))?.byFile ?? [];
}

/** The audit's name, or a 404 when it does not exist; a 409 when it has no findings yet. */
export async function reconciledAudit(auditId: string): Promise<{ name: string }> {
  const audit = await db().audit.findUnique({
    where: { id: auditId },
    select: { name: true, reconciledAt: true, status: true },
  });
  if (!audit) throw new AppError('not_found', 'No such audit');
  if (!audit.reconciledAt) {
    throw new AppError(
      'conflict',
      audit.status === 'queued' || audit.status === 'running'
        ? 'This audit has no findings yet: it is still being ingested or reconciled'
        : 'This audit has no findings: it was not reconciled (a crawl export is needed)',
    );
  }
  return { name: audit.name };
}
