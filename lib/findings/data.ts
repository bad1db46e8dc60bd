// Reads of findings: keyset pages with exact totals, one finding with its history, summaries, and a
// batched stream for exports (a server-side cursor, so memory does not grow with the list).
import { to as copyTo } from 'pg-copy-streams';
import { db, pool } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { type Cursor, decodeCursor, encodeCursor } from './cursor';
import { filterSql, isCountable } from './filter-sql';
import type {
  DecisionLogEntry,
  FindingDto,
  FindingList,
  FindingPage,
  FindingsOverview,
  TFindingFilter,
  TFindingQuery,
} from './schema';

interface FindingRow {
  id: number;
  url: string;
  list: FindingList;
  reason: string;
  reasons: string[];
  status: number | null;
  crawled_url: string | null;
  redirect_url: string | null;
  target_status: number | null;
  canonical_declared: boolean | null;
  variant_url: string | null;
  section: string | null;
  occurrences: number | null;
  indexable: boolean | null;
  noindex: boolean | null;
  blocked_by_robots: boolean | null;
  depth: number | null;
  crawled_at: Date | null;
  canonical: string | null;
  lastmod: Date | null;
  sitemap_file_id: number | null;
  file_url: string | null;
  file_upload_name: string | null;
  decision: FindingDto['decision'];
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
}

const COLUMNS = `f.id, f.url, f.list, f.reason, f.reasons, f.status, f.canonical, f.lastmod, f.crawled_url,
  f.redirect_url, f.target_status, f.canonical_declared, f.variant_url, f.section, f.occurrences, f.indexable,
  f.noindex, f.blocked_by_robots, f.depth, f.crawled_at,
  f.sitemap_file_id, sf.url AS file_url, sf.upload_name AS file_upload_name,
  f.decision, f.decided_by, f.decided_at, f.note`;
const FROM = 'findings f LEFT JOIN sitemap_files sf ON sf.id = f.sitemap_file_id';

/** The facts behind a finding, as the evidence object of the API (absent facts are left out). */
export function evidenceOf(r: FindingRow): Record<string, unknown> {
  const e: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== null && value !== undefined && value !== false)
      e[key] = value instanceof Date ? value.toISOString() : value;
  };
  put('status', r.status);
  if (r.crawled_url !== r.url) put('crawledUrl', r.crawled_url);
  put('redirectTarget', r.redirect_url);
  put('redirectTargetStatus', r.target_status);
  if (r.reasons?.includes('non_canonical')) {
    put('canonical', r.canonical);
    if (r.canonical_declared !== null) e.canonicalDeclared = r.canonical_declared;
  }
  put('variantUrl', r.variant_url);
  put('lastmod', r.lastmod);
  put('section', r.section);
  if ((r.occurrences ?? 1) > 1) put('occurrences', r.occurrences);
  if (r.indexable !== null) e.indexable = r.indexable;
  put('noindex', r.noindex);
  put('blockedByRobots', r.blocked_by_robots);
  put('depth', r.depth);
  put('crawledAt', r.crawled_at);
  return e;
}

/** The crawl time the reconcile used: evidence of every newer_than_crawl finding. */
async function crawlTimeOf(auditId: string): Promise<string | null> {
  const { rows } = await pool().query(
    `SELECT findings_summary->>'crawlTime' AS t FROM audits WHERE id = $1`,
    [auditId],
  );
  return rows[0]?.t ?? null;
}

function withCrawlTime(dto: FindingDto, crawlTime: string | null): FindingDto {
  if (dto.reason === 'newer_than_crawl' && crawlTime) dto.evidence.crawlTime = crawlTime;
  return dto;
}

export function toFindingDto(r: FindingRow): FindingDto {
  return {
    id: r.id,
    url: r.url,
    list: r.list,
    reason: r.reason,
    reasons: r.reasons ?? [r.reason],
    evidence: evidenceOf(r),
    status: r.status,
    canonical: r.canonical,
    lastmod: r.lastmod?.toISOString() ?? null,
    sitemapFile:
      r.sitemap_file_id === null
        ? null
        : { id: r.sitemap_file_id, url: r.file_url, uploadName: r.file_upload_name },
    decision: r.decision,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at?.toISOString() ?? null,
    note: r.note,
  };
}

interface Segment {
  where: string;
  params: unknown[];
}

/**
 * Keyset order and the query segments that continue after `cursor`. Each segment is a plain index range
 * (row comparison), so a deep page costs the same as the first. lastmod may be null: null rows form a
 * block of their own (last ascending, first descending), read as a separate segment.
 */
function keyset(
  sort: TFindingQuery['sort'],
  cursor: Cursor | null,
  n: number,
): { order: string; segments: Segment[] } {
  const desc = sort.startsWith('-');
  const column = sort.replace('-', '');
  const dir = desc ? 'DESC' : 'ASC';
  const op = desc ? '<' : '>';
  if (column === 'id') {
    return {
      order: `f.id ${dir}`,
      segments: [cursor ? { where: `f.id ${op} $${n}`, params: [cursor.id] } : { where: 'true', params: [] }],
    };
  }
  const col = `f.${column}`;
  const cast = column === 'lastmod' ? '::timestamptz' : '';
  const order = `${col} ${dir}, f.id ${dir}`;
  // url is never null; lastmod may be, and its null block is a segment of its own.
  const notNull = column === 'url' ? 'true' : `${col} IS NOT NULL`;
  const valued: Segment =
    cursor && cursor.v !== null && cursor.v !== undefined
      ? {
          where: `${notNull} AND (${col}, f.id) ${op} ($${n}${cast}, $${n + 1})`,
          params: [cursor.v, cursor.id],
        }
      : { where: notNull, params: [] };
  if (column === 'url') return { order, segments: [valued] };
  const inNullBlock = cursor !== null && (cursor.v === null || cursor.v === undefined);
  const nulls: Segment = inNullBlock
    ? { where: `${col} IS NULL AND f.id ${op} $${n}`, params: [cursor.id] }
    : { where: `${col} IS NULL`, params: [] };
  if (desc) return { order, segments: cursor && !inNullBlock ? [valued] : [nulls, valued] };
  return { order, segments: inNullBlock ? [nulls] : [valued, nulls] };
}

async function countMatching(auditId: string, filter: TFindingFilter): Promise<number> {
  if (isCountable(filter)) {
    const params: unknown[] = [auditId, filter.list];
    let where = 'audit_id = $1 AND list = $2';
    if (filter.reason) where += ` AND reason = $${params.push(filter.reason)}`;
    if (filter.decision) where += ` AND decision = $${params.push(filter.decision)}`;
    if (filter.host) where += ` AND host = $${params.push(filter.host.toLowerCase())}`;
    const { rows } = await pool().query(
      `SELECT coalesce(sum(n), 0)::int AS n FROM finding_counts WHERE ${where}`,
      params,
    );
    return rows[0].n;
  }
  const f = filterSql(auditId, filter);
  const { rows } = await pool().query(`SELECT count(*)::int AS n FROM findings f WHERE ${f.sql}`, f.params);
  return rows[0].n;
}

/** Up to this many matching rows, a page filtered by search, host or path is read filter-first (then
 * sorted), not sort-first: a sort-order scan that filters would read past every non-matching row when
 * matches are rare or clustered. (Reason and decision filters have sort indexes of their own.) */
const FILTER_FIRST_MAX = 50_000;

export async function listFindings(auditId: string, query: TFindingQuery): Promise<FindingPage> {
  const { sort, limit, cursor: cursorText, ...filter } = query;
  const cursor = decodeCursor(cursorText, sort);
  const f = filterSql(auditId, filter);
  const k = keyset(sort, cursor, f.params.length + 1);
  const crawlTimePromise = crawlTimeOf(auditId);
  const total = await countMatching(auditId, filter);
  const filterFirst = Boolean(filter.q || filter.host || filter.pathPrefix) && total <= FILTER_FIRST_MAX;
  const found: FindingRow[] = [];
  for (const segment of k.segments) {
    const params = [...f.params, ...segment.params, limit + 1 - found.length];
    const n = `$${params.length}`;
    // Filter-first: the matching rows' sort keys are read through the filter's index and sorted, and only
    // the page's rows are then fetched whole.
    const sql = filterFirst
      ? `WITH m AS MATERIALIZED (
           SELECT f.id, f.url, f.lastmod FROM findings f WHERE ${f.sql} AND ${segment.where}),
         page AS MATERIALIZED (SELECT * FROM m f ORDER BY ${k.order} LIMIT ${n})
         SELECT ${COLUMNS} FROM page p JOIN ${FROM} ON f.audit_id = $1 AND f.id = p.id ORDER BY ${k.order}`
      : `SELECT ${COLUMNS} FROM ${FROM} WHERE ${f.sql} AND ${segment.where} ORDER BY ${k.order} LIMIT ${n}`;
    const { rows } = await pool().query<FindingRow>(sql, params);
    found.push(...rows);
    if (found.length > limit) break;
  }
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  let nextCursor: string | null = null;
  if (found.length > limit && last) {
    const column = sort.replace('-', '');
    const value =
      column === 'id' ? undefined : column === 'url' ? last.url : (last.lastmod?.toISOString() ?? null);
    nextCursor = encodeCursor(value === undefined ? { id: last.id } : { v: value, id: last.id });
  }
  const crawlTime = await crawlTimePromise;
  return {
    items: rows.map((r) => withCrawlTime(toFindingDto(r), crawlTime)),
    nextCursor,
    total,
  };
}

export async function getFinding(
  auditId: string,
  id: number,
): Promise<(FindingDto & { history: DecisionLogEntry[] }) | null> {
  const { rows } = await pool().query<FindingRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE f.audit_id = $1 AND f.id = $2`,
    [auditId, id],
  );
  const row = rows[0];
  if (!row) return null;
  const log = await db().decisionLog.findMany({
    where: { auditId, findingId: id },
    orderBy: { id: 'desc' },
    take: 200,
  });
  return {
    ...withCrawlTime(toFindingDto(row), await crawlTimeOf(auditId)),
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
    select: { reconciledAt: true, findingsSummary: true, findingCounts: true },
  });
  if (!audit?.reconciledAt) return null;
  const summary = (audit.findingsSummary ?? {}) as {
    addExcluded?: FindingsOverview['addExcluded'];
    crawlTime?: string | null;
    indexedAt?: string;
  };
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
    addExcluded: summary.addExcluded ?? { non200: 0, noindex: 0, canonicalised: 0 },
    crawlTime: summary.crawlTime ?? null,
    reconciledAt: audit.reconciledAt.toISOString(),
    indexesReady: Boolean(summary.indexedAt),
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

export async function findingsByFile(auditId: string): Promise<unknown[] | null> {
  const audit = await db().audit.findUnique({ where: { id: auditId }, select: { findingsSummary: true } });
  if (!audit) return null;
  return ((audit.findingsSummary ?? {}) as { byFile?: unknown[] }).byFile ?? [];
}

/** The rows of one list (optionally one decision) in id order, a batch at a time, from a cursor. */
export async function* streamFindings(
  auditId: string,
  list: FindingList,
  decision: FindingDto['decision'] | 'all',
  batchSize = 5000,
): AsyncGenerator<FindingDto[]> {
  const client = await pool().connect();
  try {
    await client.query('BEGIN READ ONLY');
    const params: unknown[] = [auditId, list];
    const decisionSql = decision === 'all' ? '' : ` AND f.decision = $${params.push(decision)}`;
    await client.query(
      `DECLARE findings_export NO SCROLL CURSOR FOR
       SELECT ${COLUMNS} FROM ${FROM} WHERE f.audit_id = $1 AND f.list = $2${decisionSql} ORDER BY f.id`,
      params,
    );
    for (;;) {
      const { rows } = await client.query<FindingRow>(`FETCH ${batchSize} FROM findings_export`);
      if (rows.length === 0) break;
      yield rows.map(toFindingDto);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A cell text neutralised like csvCell: a leading = + - @ TAB or CR gets an apostrophe. */
function neutralised(column: string): string {
  return `CASE WHEN ${column} ~ '^[=+@\\t\\r-]' THEN '''' || ${column} ELSE ${column} END`;
}

/** The evidence as `key=value` pairs (the API's evidence keys), for the CSV's detail column. */
const DETAIL_SQL = `concat_ws('; ',
  'status=' || f.status,
  CASE WHEN f.crawled_url <> f.url THEN 'crawledUrl=' || f.crawled_url END,
  'redirectTarget=' || f.redirect_url,
  'redirectTargetStatus=' || f.target_status,
  CASE WHEN 'non_canonical' = ANY (f.reasons) THEN 'canonical=' || f.canonical END,
  CASE WHEN 'non_canonical' = ANY (f.reasons) THEN 'canonicalDeclared=' || f.canonical_declared END,
  'variantUrl=' || f.variant_url,
  'lastmod=' || to_char(f.lastmod AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  CASE WHEN f.reason = 'newer_than_crawl' THEN 'crawlTime=' || $3 END,
  'section=' || f.section,
  CASE WHEN f.occurrences > 1 THEN 'occurrences=' || f.occurrences END,
  CASE WHEN f.noindex THEN 'noindex=true' END,
  CASE WHEN f.blocked_by_robots THEN 'blockedByRobots=true' END,
  'depth=' || f.depth)`;

/**
 * The CSV export of one list, formatted by Postgres (COPY ... TO STDOUT, CSV quoting) and streamed as it
 * is produced. `release` must be called when the stream ends or is abandoned.
 */
export async function copyFindingsCsv(
  auditId: string,
  list: FindingList,
  decision: FindingDto['decision'] | 'all',
): Promise<{ stream: NodeJS.ReadableStream; release: () => void }> {
  const client = await pool().connect();
  const params: unknown[] = [auditId, list, (await crawlTimeOf(auditId)) ?? ''];
  const decisionSql = decision === 'all' ? '' : ` AND f.decision = ${client.escapeLiteral(decision)}`;
  // COPY takes no parameters: the values are inlined as escaped literals.
  const literal = (i: number) => client.escapeLiteral(String(params[i]));
  const sql = `COPY (
    SELECT ${neutralised('f.url')} AS url, f.reason, ${neutralised(DETAIL_SQL.replaceAll('$3', literal(2)))} AS detail,
           f.decision, ${neutralised('f.decided_by')} AS decided_by,
           to_char(f.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS decided_at,
           ${neutralised('f.note')} AS note
      FROM findings f
     WHERE f.audit_id = ${literal(0)}::uuid AND f.list = ${literal(1)}${decisionSql}
     ORDER BY f.id
  ) TO STDOUT WITH (FORMAT csv, HEADER)`;
  const stream = client.query(copyTo(sql));
  let released = false;
  // A COPY stopped half way leaves the connection mid-protocol: such a connection is discarded.
  const release = (broken = true) => {
    if (released) return;
    released = true;
    client.release(broken);
  };
  stream.on('end', () => release(false));
  stream.on('error', () => release(true));
  stream.on('close', () => release(true));
  return { stream, release: () => release(true) };
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
