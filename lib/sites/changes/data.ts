// The change feed of a site: its events newest first (keyset on id), with the counts per type under the
// same filter, so a feed filtered to one type still says how many of the others there are.
import 'server-only';
import { likeEscape } from '@/lib/core/text';
import { pool } from '@/lib/db/client';
import {
  CHANGE_TYPES,
  type ChangeCounts,
  type ChangeType,
  type SiteChangeDto,
  type SiteChangePage,
  type TChangeQuery,
} from '../schema';

/** A cursor past the largest id there can be reads as that id (everything is older). */
const MAX_ID = 9_223_372_036_854_775_807n;

interface ChangeRow {
  id: string;
  type: ChangeType;
  url: string;
  target: string | null;
  previous_lastmod: Date | null;
  current_lastmod: Date | null;
  audit_id: string | null;
  previous_audit_id: string | null;
  created_at: Date;
}

function toDto(row: ChangeRow): SiteChangeDto {
  return {
    id: row.id,
    type: row.type,
    url: row.url,
    target: row.target,
    previousLastmod: row.previous_lastmod?.toISOString() ?? null,
    currentLastmod: row.current_lastmod?.toISOString() ?? null,
    auditId: row.audit_id,
    previousAuditId: row.previous_audit_id,
    createdAt: row.created_at.toISOString(),
  };
}

/** The site's events matching `query`, a page at a time (cursor: the last id shown). */
export async function listChanges(siteId: string, query: TChangeQuery): Promise<SiteChangePage> {
  const where = ['c.site_id = $1'];
  const params: unknown[] = [siteId];
  const add = (condition: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (query.since) add((n) => `c.created_at >= ${n}::timestamptz`, query.since);
  if (query.auditId) add((n) => `c.audit_id = ${n}::uuid`, query.auditId);
  // A part of the URL, `%` and `_` taken literally.
  if (query.q) add((n) => `c.url ILIKE ${n}`, `%${likeEscape(query.q)}%`);
  const filtered = [...where];
  const countParams = [...params];
  if (query.type) add((n) => `c.type = ${n}`, query.type);
  if (query.cursor) {
    const cursor = BigInt(query.cursor);
    add((n) => `c.id < ${n}::bigint`, (cursor > MAX_ID ? MAX_ID : cursor).toString());
  }
  params.push(query.limit + 1);
  const [page, counts] = await Promise.all([
    pool().query<ChangeRow>(
      `SELECT c.id::text AS id, c.type, c.url, c.target, c.previous_lastmod, c.current_lastmod, c.audit_id,
              c.previous_audit_id, c.created_at
         FROM site_changes c WHERE ${where.join(' AND ')}
        ORDER BY c.id DESC LIMIT $${params.length}`,
      params,
    ),
    pool().query<{ type: ChangeType; n: number }>(
      `SELECT c.type, count(*)::int AS n FROM site_changes c WHERE ${filtered.join(' AND ')} GROUP BY c.type`,
      countParams,
    ),
  ]);
  const items = page.rows.slice(0, query.limit).map(toDto);
  const byType = Object.fromEntries(CHANGE_TYPES.map((type) => [type, 0])) as ChangeCounts;
  for (const row of counts.rows) if (row.type in byType) byType[row.type] = row.n;
  return {
    items,
    counts: byType,
    nextCursor: page.rows.length > query.limit ? (items[items.length - 1]?.id ?? null) : null,
  };
}
