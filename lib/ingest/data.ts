// Reads of the ingest step: the previous copies a site's new audit fetches its sitemap files against.
import 'server-only';
import { pool } from '@/lib/db/client';
import type { SitemapWarning } from '@/lib/sitemap/types';
import type { PreviousCopy } from './tree-types';

/** Audits of the site searched for copies, newest first. Each run carries the validators of what it
 * reused, so the newest holds a copy of everything unchanged; going further back only finds files that
 * failed lately, and costs every file of every audit (3 audits of 50,000 files: 0.9 s, so a year of
 * daily runs would take about 100 s). A URL without a copy among them is simply fetched in full. */
const AUDITS_SEARCHED = 3;

interface CopyRow {
  url: string;
  id: number;
  audit_id: string;
  etag: string | null;
  last_modified: string | null;
  kind: string | null;
  entries: number;
  children: string[] | null;
  compressed_bytes: string | null;
  uncompressed_bytes: string | null;
  content_type: string | null;
  content_encoding: string | null;
  gzipped: boolean | null;
  has_bom: boolean | null;
  warnings: SitemapWarning[] | null;
  root_tag: string | null;
  lastmods: (string | null)[] | null;
}

/**
 * For each URL a file of another audit of the site was fetched from: that file in the newest such audit
 * (among the site's AUDITS_SEARCHED newest whose entries are stored: a deleted audit has none) where it
 * was read whole ('ok', not partial) and has a validator (ETag or Last-Modified), under the same
 * normalization (the stored keys depend on it). robots.txt is always fetched again. One query for the
 * whole site, so a tree of 50,000 files costs one round trip, not one per file.
 */
export async function previousCopies(
  siteId: string,
  auditId: string,
  normalization: string,
): Promise<Map<string, PreviousCopy>> {
  const { rows } = await pool().query<CopyRow>(
    `WITH stored AS (
       SELECT a.id, a.created_at FROM audits a
        WHERE a.site_id = $1 AND a.id <> $2 AND a.normalization = $3
          AND EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                       WHERE i.inhparent = 'sitemap_entries'::regclass
                         AND c.relname = 'sitemap_entries_' || replace(a.id::text, '-', ''))
        ORDER BY a.created_at DESC, a.id DESC LIMIT ${AUDITS_SEARCHED}),
     copy AS (
       SELECT DISTINCT ON (f.url) f.url, f.id, f.audit_id, f.etag, f.last_modified, f.kind, f.entries,
              f.compressed_bytes, f.uncompressed_bytes, f.content_type, f.content_encoding, f.gzipped,
              f.has_bom, f.warnings, f.root_tag
         FROM sitemap_files f JOIN stored s ON s.id = f.audit_id
        WHERE f.url IS NOT NULL AND f.status = 'ok' AND NOT f.partial
          AND f.kind IS DISTINCT FROM 'robots'
          AND (f.etag IS NOT NULL OR f.last_modified IS NOT NULL)
        ORDER BY f.url, s.created_at DESC, s.id DESC),
     children AS (
       SELECT c.parent_id, array_agg(c.url ORDER BY c.position) AS urls,
              array_agg(c.listed_lastmod ORDER BY c.position) AS lastmods
         FROM sitemap_files c
        WHERE c.audit_id IN (SELECT audit_id FROM copy WHERE kind = 'index')
          AND c.parent_id IN (SELECT id FROM copy WHERE kind = 'index') AND c.url IS NOT NULL
        GROUP BY c.parent_id)
     SELECT copy.*, children.urls AS children, children.lastmods FROM copy LEFT JOIN children ON children.parent_id = copy.id`,
    [siteId, auditId, normalization],
  );
  const copies = new Map<string, PreviousCopy>();
  for (const row of rows) {
    copies.set(row.url, {
      fileId: row.id,
      auditId: row.audit_id,
      etag: row.etag,
      lastModified: row.last_modified,
      kind: row.kind,
      entries: row.entries,
      children: row.children ?? [],
      compressedBytes: row.compressed_bytes === null ? null : Number(row.compressed_bytes),
      uncompressedBytes: row.uncompressed_bytes === null ? null : Number(row.uncompressed_bytes),
      contentType: row.content_type,
      contentEncoding: row.content_encoding,
      gzipped: row.gzipped,
      hasBom: row.has_bom,
      warnings: row.warnings ?? [],
      rootTag: row.root_tag,
      childLastmods: row.lastmods ?? [],
    });
  }
  return copies;
}
