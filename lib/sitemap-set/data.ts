// The corrected set's reads: every URL it holds, sorted by section and URL and de-duplicated by
// Postgres, read from a server-side cursor a batch at a time; and the counts its summary gives. The
// rows' rules (which entry stays, which is replaced, which is added) live in one SQL text, CANDIDATES.
import 'server-only';
import { pool } from '@/lib/db/client';
import { streamRows } from '@/lib/db/cursor';
import type { SetRow } from './writer';

/** An approved prune row that is a url_variant with a usable crawled form (one the crawl saw answer 200,
 * as the export's replace_with): written as that form. Any other approved variant is removed, never
 * swapped for a URL that redirects or fails. */
const REPLACED = `coalesce(f.reason = 'url_variant' AND f.variant_url IS NOT NULL AND f.variant_status = 200
  AND NOT ('variant_canonicalised' = ANY (f.signals)), false)`;

/** A root-relative loc the audit could not key, resolved against its sitemap's own URL (Hugo and Yoast
 * ship them); null when it is not root-relative or the file has no URL (an upload). */
const RESOLVED = `CASE WHEN e.loc ~ '^/([^/]|$)'
  THEN substring(coalesce(sf.final_url, sf.url) from '(?i)^https?://[^/?#]+') || e.loc END`;

/** The approved prune row of each entry (prune rows are one per declared key). */
const ENTRY_FROM = `sitemap_entries e
  LEFT JOIN sitemap_files sf ON sf.id = e.file_id
  LEFT JOIN findings f ON f.audit_id = e.audit_id AND f.key = e.key AND f.list = 'prune' AND f.decision = 'approved'`;

/** Every URL the set would hold before de-duplication, with which occurrence wins a duplicate: a kept
 * entry (rank 0) over a replacement (1) over an addition (2); among entries, the last declared. The
 * declared lastmod is kept when it parsed (an unreadable one is dropped); an addition's is the time the
 * crawl saw the page. */
const CANDIDATES = `
  SELECT CASE WHEN ${REPLACED} THEN f.variant_url WHEN e.key IS NOT NULL THEN e.loc ELSE ${RESOLVED} END AS url,
         CASE WHEN ${REPLACED} THEN 1 ELSE 0 END AS rank,
         CASE WHEN e.lastmod IS NOT NULL THEN btrim(e.lastmod_raw) END AS lastmod,
         e.file_id, e.position
    FROM ${ENTRY_FROM}
   WHERE e.audit_id = $1 AND (f.key IS NULL OR ${REPLACED}) AND (e.key IS NOT NULL OR ${RESOLVED} IS NOT NULL)
  UNION ALL
  SELECT f.url, 2, to_char(f.crawled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'), 2147483647, f.id
    FROM findings f
   WHERE f.audit_id = $1 AND f.list = 'add' AND f.decision = 'approved'`;

/** The URL's first path segment when a slash follows it (`/blog/post` → blog); '' for root pages
 * (`/about`), as the reconcile's sections. */
const SECTION = `coalesce(substring(c.url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*/([^/?#]+)/'), '')`;

/** The set: one row per distinct URL, sorted by section then URL (byte order, so the sort is stable). */
const SET_ROWS = `
  SELECT DISTINCT ON (s.section, s.url) s.section, s.url, s.lastmod
    FROM (SELECT ${SECTION} COLLATE "C" AS section, c.url COLLATE "C" AS url, c.lastmod, c.rank, c.file_id, c.position
            FROM (${CANDIDATES}) c) s
   ORDER BY s.section, s.url, s.rank, s.file_id DESC, s.position DESC`;

/** The set's rows in order, `batchSize` at a time, from a cursor: memory follows the batch. */
export function streamSetRows(auditId: string, batchSize = 2000): AsyncGenerator<SetRow[]> {
  return streamRows<SetRow>(SET_ROWS, [auditId], batchSize);
}

export interface SetCounts {
  entries: number;
  files: number;
  removed: Record<string, number>;
  replaced: number;
  added: number;
  candidates: number;
  /** URLs per section of the de-duplicated set (empty unless asked). */
  sections: { section: string; urls: number }[];
}

/** What the set would hold, counted in Postgres without writing it; its sections (a sort of the whole
 * set) only when asked. */
export async function setCounts(auditId: string, withSections: boolean): Promise<SetCounts> {
  const p = pool();
  const [entries, removed, candidates, sections] = await Promise.all([
    p.query<{ entries: number; files: number }>(
      `SELECT count(*)::int AS entries, count(DISTINCT e.file_id)::int AS files
         FROM sitemap_entries e WHERE e.audit_id = $1`,
      [auditId],
    ),
    p.query<{ reason: string; n: number }>(
      `SELECT CASE WHEN e.key IS NULL THEN 'not_a_url' ELSE f.reason END AS reason, count(*)::int AS n
         FROM ${ENTRY_FROM}
        WHERE e.audit_id = $1
          AND ((e.key IS NULL AND ${RESOLVED} IS NULL) OR (f.key IS NOT NULL AND NOT ${REPLACED}))
        GROUP BY 1 ORDER BY 2 DESC, 1`,
      [auditId],
    ),
    p.query<{ rank: number; n: number }>(
      `SELECT c.rank, count(*)::int AS n FROM (${CANDIDATES}) c GROUP BY c.rank`,
      [auditId],
    ),
    withSections
      ? p.query<{ section: string; urls: number }>(
          `SELECT s.section, count(*)::int AS urls FROM (${SET_ROWS}) s GROUP BY s.section ORDER BY s.section`,
          [auditId],
        )
      : { rows: [] },
  ]);
  const byRank = new Map(candidates.rows.map((r) => [r.rank, r.n]));
  return {
    entries: entries.rows[0]?.entries ?? 0,
    files: entries.rows[0]?.files ?? 0,
    removed: Object.fromEntries(removed.rows.map((r) => [r.reason, r.n])),
    replaced: byRank.get(1) ?? 0,
    added: byRank.get(2) ?? 0,
    candidates: candidates.rows.reduce((sum, r) => sum + r.n, 0),
    sections: sections.rows,
  };
}

/** The site's origin: that of the first declared URL the audit could read (file order, then position). */
export async function siteOrigin(auditId: string): Promise<string | null> {
  const { rows } = await pool().query<{ origin: string | null }>(
    `SELECT substring(e.loc from '(?i)^https?://[^/?#]+') AS origin FROM sitemap_entries e
      WHERE e.audit_id = $1 AND e.key IS NOT NULL ORDER BY e.file_id, e.position LIMIT 1`,
    [auditId],
  );
  return rows[0]?.origin ?? null;
}

// ── The input layout: every file as read, changed only where a decision says so ──

/** A sitemap file of the audit as the input layout needs it. */
export interface InputFileRow {
  id: number;
  parentId: number | null;
  url: string | null;
  finalUrl: string | null;
  uploadName: string | null;
  kind: string | null;
  status: string;
  errorCode: string | null;
  gzipped: boolean | null;
  rootTag: string | null;
  listedLoc: string | null;
  listedLastmod: string | null;
  /** Entries the reader refused (no <loc>, not http(s), too long): not stored, so not written back. At
   * least this many: a file's warning counts each refused kind (a missing <loc> counts once). */
  refused: number;
}

export async function inputFiles(auditId: string): Promise<InputFileRow[]> {
  const { rows } = await pool().query<InputFileRow>(
    `SELECT id, parent_id AS "parentId", url, final_url AS "finalUrl", upload_name AS "uploadName", kind, status,
            error_code AS "errorCode", gzipped, root_tag AS "rootTag", listed_loc AS "listedLoc",
            listed_lastmod AS "listedLastmod",
            (SELECT coalesce(sum(coalesce((w ->> 'count')::int, 1)), 0) FROM jsonb_array_elements(warnings) w
              WHERE w ->> 'code' IN ('loc_too_long', 'non_http_loc', 'missing_loc'))::int AS refused
       FROM sitemap_files WHERE audit_id = $1 ORDER BY position, id`,
    [auditId],
  );
  return rows;
}

/** What the decisions do to one file's entries; `bytes`: the kept entries' size, estimated from their
 * fields (the summary's split forecast; the zip measures what it writes). */
export interface InputFileCounts {
  entries: number;
  removed: number;
  replaced: number;
  bytes: number;
}

/** Per file: entries, approved prunes (removed), approved url variants (replaced), kept bytes. */
export async function inputFileCounts(auditId: string): Promise<Map<number, InputFileCounts>> {
  const { rows } = await pool().query<InputFileCounts & { fileId: number }>(
    `SELECT e.file_id AS "fileId", count(*)::int AS entries,
            (count(*) FILTER (WHERE f.key IS NOT NULL AND NOT ${REPLACED}))::int AS removed,
            (count(*) FILTER (WHERE ${REPLACED}))::int AS replaced,
            coalesce(sum(40 + octet_length(e.loc) + coalesce(octet_length(e.extra), 0)
                + coalesce(octet_length(e.lastmod_raw) + 19, 0) + coalesce(octet_length(e.changefreq) + 25, 0)
                + CASE WHEN e.priority IS NULL THEN 0 ELSE 24 END)
              FILTER (WHERE f.key IS NULL OR ${REPLACED}), 0)::float8 AS bytes
       FROM ${ENTRY_FROM}
      WHERE e.audit_id = $1
      GROUP BY e.file_id`,
    [auditId],
  );
  return new Map(rows.map(({ fileId, ...counts }) => [fileId, counts]));
}

/** Approved prunes by reason (replacements are not removals). */
export async function removedByReason(auditId: string): Promise<Record<string, number>> {
  const { rows } = await pool().query<{ reason: string; n: number }>(
    `SELECT f.reason, count(*)::int AS n FROM ${ENTRY_FROM}
      WHERE e.audit_id = $1 AND f.key IS NOT NULL AND NOT ${REPLACED}
      GROUP BY 1 ORDER BY 2 DESC, 1`,
    [auditId],
  );
  return Object.fromEntries(rows.map((r) => [r.reason, r.n]));
}

/** One kept entry, in its file's order; `replaceWith`: the approved url variant's crawled URL. */
export interface InputRow {
  fileId: number;
  loc: string;
  lastmodRaw: string | null;
  changefreq: string | null;
  priority: number | null;
  extra: string | null;
  replaceWith: string | null;
}

/** Every entry an approved prune leaves, file by file in declared order, from a cursor. */
export function streamInputRows(auditId: string, batchSize = 2000): AsyncGenerator<InputRow[]> {
  return streamRows<InputRow>(
    `SELECT e.file_id AS "fileId", e.loc, e.lastmod_raw AS "lastmodRaw", e.changefreq, e.priority, e.extra,
            CASE WHEN ${REPLACED} THEN f.variant_url END AS "replaceWith"
       FROM ${ENTRY_FROM}
      WHERE e.audit_id = $1 AND (f.key IS NULL OR ${REPLACED})
      ORDER BY e.file_id, e.position`,
    [auditId],
    batchSize,
  );
}

/** Declared locs an approved url variant replaces, with their replacement: hreflang hrefs naming the
 * old URL are rewritten too. */
export async function replacedLocs(auditId: string): Promise<Map<string, string>> {
  const { rows } = await pool().query<{ loc: string; url: string }>(
    `SELECT DISTINCT e.loc, f.variant_url AS url FROM ${ENTRY_FROM}
      WHERE e.audit_id = $1 AND f.key IS NOT NULL AND ${REPLACED}`,
    [auditId],
  );
  return new Map(rows.map((r) => [r.loc, r.url]));
}

/** Approved add rows the input layout adds: not the crawled URL of an approved url variant, which the
 * replaced entry already declares (the reconcile puts that URL on both lists). */
const INPUT_ADDS = `findings f
  WHERE f.audit_id = $1 AND f.list = 'add' AND f.decision = 'approved'
    AND NOT EXISTS (SELECT 1 FROM findings p
                     WHERE p.audit_id = f.audit_id AND p.list = 'prune' AND p.decision = 'approved'
                       AND p.reason = 'url_variant' AND p.variant_url = f.url
                       AND NOT ('variant_canonicalised' = ANY (p.signals)))`;

/** The input layout's additions, in URL order, with the crawl's time as lastmod. */
export function streamAddedRows(
  auditId: string,
  batchSize = 2000,
): AsyncGenerator<{ url: string; lastmod: string | null }[]> {
  return streamRows<{ url: string; lastmod: string | null }>(
    `SELECT f.url, to_char(f.crawled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS lastmod
       FROM ${INPUT_ADDS}
      ORDER BY f.url COLLATE "C"`,
    [auditId],
    batchSize,
  );
}

/** The input layout's additions, counted. */
export async function approvedAdds(auditId: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${INPUT_ADDS}`, [
    auditId,
  ]);
  return rows[0]?.n ?? 0;
}
