// The per-sitemap gap's reads: each sitemap file's distinct declared keys joined with
// the current Search Console state of each key in one grouped pass, the files, the latest Sitemaps report
// and the latest overview chart. Counts come back grouped (files × states × reasons); lib/gsc/gaps.ts
// shapes them.
import 'server-only';
import { displaySql } from '@/lib/core/display';
import { pool } from '@/lib/db/client';
import { currentGscStatesSql } from '@/lib/findings/evidence/gsc-current';
import { gscColumn } from '@/lib/review/columns/gsc/data';

/** The current state of each key of the audit (lib/findings/evidence/gsc-current.ts: the newest succeeded import, unless a
 * newer URL Inspection answer), as a CTE over `$1` (the audit id); `sampled` says the key was inspected. */
const CURRENT_STATES = `cur AS (${currentGscStatesSql('$1')})`;

/** One group of a file's distinct declared keys: state null = unknown. */
export interface GapCountRow {
  fileId: number;
  state: 'indexed' | 'not_indexed' | null;
  bucket: string | null;
  reason: string | null;
  sampled: boolean;
  count: number;
}

/**
 * Every file's distinct declared keys by current state, reason and whether they were inspected: one pass
 * over the audit's entries (its partition), de-duplicated per file by a hash aggregate, hash-joined with
 * the current states (small next to the entries), grouped again. Entries without a key (a loc that is no
 * URL) cannot be matched and are not counted.
 */
export async function gapCounts(auditId: string, keysDistinct: boolean): Promise<GapCountRow[]> {
  // When the ingest proved every declared key distinct, no file repeats one: the de-duplicating aggregate
  // (0.5 s of the 2.6 s on a 1,000,000-entry audit here) is skipped.
  const entries = keysDistinct
    ? 'SELECT file_id, key FROM sitemap_entries WHERE audit_id = $1 AND key IS NOT NULL'
    : 'SELECT file_id, key FROM sitemap_entries WHERE audit_id = $1 AND key IS NOT NULL GROUP BY file_id, key';
  const { rows } = await pool().query<GapCountRow>(
    `WITH ${CURRENT_STATES},
     fe AS (${entries})
     SELECT fe.file_id AS "fileId", cur.state,
            CASE WHEN cur.state = 'not_indexed' THEN cur.bucket END AS bucket,
            CASE WHEN cur.state = 'not_indexed' THEN ${displaySql('cur.reason')} END AS reason,
            COALESCE(cur.sampled, false) AS sampled, count(*)::int AS count
       FROM fe LEFT JOIN cur ON cur.key = fe.key
      GROUP BY 1, 2, 3, 4, 5`,
    [auditId],
  );
  return rows;
}

/** Distinct URLs (by key; by URL when it has none) the imports and inspections name with a state. */
export async function namedUrlCount(auditId: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT COALESCE(s.key, s.url) FROM gsc_url_states s
         JOIN gsc_imports i ON i.id = s.import_id AND i.status = 'succeeded'
        WHERE s.audit_id = $1
       UNION
       SELECT COALESCE(key, url) FROM gsc_inspections WHERE audit_id = $1 AND state IS NOT NULL) u`,
    [auditId],
  );
  return rows[0]?.n ?? 0;
}

export interface GapFileRow {
  id: number;
  parentId: number | null;
  url: string | null;
  finalUrl: string | null;
  uploadName: string | null;
  kind: string | null;
  entries: number;
}

/** The audit's sitemap files (an audit has at most a few thousand), indexes included: a report line of an
 * index covers its children. Stored texts are cut to the display bound in SQL (a megabyte URL stays in
 * the database). */
export async function gapFiles(
  auditId: string,
): Promise<{ normalization: string; keysDistinct: boolean; files: GapFileRow[] } | null> {
  // sitemap_duplicate_keys = 0: the ingest proved every declared key distinct (null: not known).
  const audit = await pool().query<{ normalization: string; keysDistinct: boolean }>(
    `SELECT normalization, COALESCE(sitemap_duplicate_keys = 0, false) AS "keysDistinct" FROM audits WHERE id = $1`,
    [auditId],
  );
  const first = audit.rows[0];
  if (!first) return null;
  const { rows } = await pool().query<GapFileRow>(
    `SELECT id, parent_id AS "parentId", ${displaySql('url')} AS url, ${displaySql('final_url')} AS "finalUrl",
            ${displaySql('upload_name')} AS "uploadName", kind, entries
       FROM sitemap_files WHERE audit_id = $1 ORDER BY depth, position, id`,
    [auditId],
  );
  return { normalization: first.normalization, keysDistinct: first.keysDistinct, files: rows };
}

export interface SitemapReportRow {
  sitemap: string;
  type: string | null;
  submitted: string | null;
  lastRead: string | null;
  status: string | null;
  discoveredPages: number | null;
}

/** The Sitemaps report of the newest succeeded import that holds one, and that import's date (UTC). */
export async function latestSitemapReport(
  auditId: string,
): Promise<{ importedOn: string; rows: SitemapReportRow[] } | null> {
  const { rows } = await pool().query<SitemapReportRow & { importedOn: string }>(
    `WITH latest AS (
       SELECT i.id, to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
         FROM gsc_imports i
        WHERE i.audit_id = $1 AND i.status = 'succeeded'
          AND EXISTS (SELECT 1 FROM gsc_sitemap_reports r WHERE r.import_id = i.id)
        ORDER BY i.created_at DESC, i.id DESC LIMIT 1)
     SELECT ${displaySql('r.sitemap')} AS sitemap, ${displaySql('r.type')} AS type, to_char(r.submitted, 'YYYY-MM-DD') AS submitted,
            to_char(r.last_read, 'YYYY-MM-DD') AS "lastRead", ${displaySql('r.status')} AS status, r.discovered_pages AS "discoveredPages",
            latest.day AS "importedOn"
       FROM gsc_sitemap_reports r JOIN latest ON latest.id = r.import_id
      ORDER BY r.export_index, r.line`,
    [auditId],
  );
  const first = rows[0];
  if (!first) return null;
  return { importedOn: first.importedOn, rows: rows.map(({ importedOn: _, ...row }) => row) };
}

export interface ChartPointRow {
  date: string;
  indexed: number | null;
  notIndexed: number | null;
}

/** The overview chart of the newest succeeded import that holds one (its last export if it holds two). */
export async function latestChart(
  auditId: string,
): Promise<{ importedAt: string; points: ChartPointRow[] } | null> {
  const { rows } = await pool().query<ChartPointRow & { importedAt: Date }>(
    `WITH latest AS (
       SELECT p.import_id, p.export_index, i.created_at AS at
         FROM gsc_chart_points p JOIN gsc_imports i ON i.id = p.import_id AND i.status = 'succeeded'
        WHERE p.audit_id = $1
        ORDER BY i.created_at DESC, i.id DESC, p.export_index DESC LIMIT 1)
     SELECT to_char(p.date, 'YYYY-MM-DD') AS date, p.indexed, p.not_indexed AS "notIndexed", latest.at AS "importedAt"
       FROM gsc_chart_points p JOIN latest ON latest.import_id = p.import_id AND latest.export_index = p.export_index
      ORDER BY p.date`,
    [auditId],
  );
  const first = rows[0];
  if (!first) return null;
  return {
    importedAt: first.importedAt.toISOString(),
    points: rows.map(({ importedAt: _, ...point }) => point),
  };
}

/** Which succeeded imports an answer was read after: their count and the newest one's id, as
 * importsSignatureOf (lib/gsc/gaps-shape.ts) writes them from the imports list. */
export async function importsSignature(auditId: string): Promise<string> {
  const { rows } = await pool().query<{ n: number; latest: string | null }>(
    `SELECT count(*)::int AS n, (array_agg(id ORDER BY created_at DESC, id DESC))[1] AS latest
       FROM gsc_imports WHERE audit_id = $1 AND status = 'succeeded'`,
    [auditId],
  );
  return `${rows[0]?.n ?? 0}:${rows[0]?.latest ?? ''}`;
}

/** Whether the audit has any succeeded import or inspected URL (else the section has nothing to say). */
export const hasSearchConsoleData = gscColumn.present;
