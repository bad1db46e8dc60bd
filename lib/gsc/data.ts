// Reads of Search Console imports: what the import step needs of its run, and the imports the
// API lists.
import 'server-only';
import { pool } from '@/lib/db/client';
import { phaseLabel } from '@/lib/runs/phases';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import type { GscImportDto, StoredUpload } from './import-schema';

interface ImportToRun {
  auditId: string;
  uploads: StoredUpload[];
  normalization: NormalizationProfile;
  issue: string | null;
}

export async function importToRun(importId: string): Promise<ImportToRun | null> {
  const { rows } = await pool().query<ImportToRun>(
    `SELECT i.audit_id AS "auditId", i.uploads, a.normalization, i.issue
       FROM gsc_imports i JOIN audits a ON a.id = i.audit_id WHERE i.id = $1`,
    [importId],
  );
  return rows[0] ?? null;
}

/**
 * The hosts of the audit's site: every host its sitemap entries declare (from their keys, which hold the
 * host as the URL wrote it, lower case) and the host of the site the audit belongs to; lower case,
 * without a port. One pass over the audit's entries (a hash aggregate), once per import.
 */
export async function siteHostsOf(auditId: string): Promise<string[]> {
  const { rows } = await pool().query<{ host: string }>(
    `SELECT DISTINCT split_part(split_part(key, '/', 3), ':', 1) AS host
       FROM sitemap_entries WHERE audit_id = $1 AND key IS NOT NULL
     UNION
     SELECT split_part(s.host, ':', 1) FROM audits a JOIN sites s ON s.id = a.site_id WHERE a.id = $1`,
    [auditId],
  );
  return [...new Set(rows.map((r) => r.host.toLowerCase()).filter((h) => h !== ''))].sort();
}

/** The audit an import belongs to, or null when it is gone. */
export async function importAuditOf(importId: string): Promise<string | null> {
  const { rows } = await pool().query<{ auditId: string }>(
    'SELECT audit_id AS "auditId" FROM gsc_imports WHERE id = $1',
    [importId],
  );
  return rows[0]?.auditId ?? null;
}

const COLUMNS = `i.id, i.status, i.phase, i.progress_done AS done, i.progress_total AS total,
  i.created_by AS "createdBy", i.created_at AS "createdAt", i.finished_at AS "finishedAt", i.uploads,
  i.files, i.exports, i.ignored, i.summary, i.problems, i.error_message AS "errorMessage"`;

type ImportRow = Omit<
  GscImportDto,
  'progress' | 'phaseLabel' | 'createdAt' | 'finishedAt' | 'uploads' | 'files' | 'exports' | 'problems'
> & {
  done: number;
  total: number;
  createdAt: Date;
  finishedAt: Date | null;
  uploads: StoredUpload[];
  files: GscImportDto['files'] | null;
  exports: GscImportDto['exports'] | null;
  problems: GscImportDto['problems'] | null;
};

function dtoOf({ done, total, uploads, files, exports, problems, ...row }: ImportRow): GscImportDto {
  return {
    ...row,
    phaseLabel: phaseLabel(row.phase),
    progress: { done, total },
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    // Where an upload sits on the server's disk is not the client's business.
    uploads: uploads.map((u) => ({ name: u.name, bytes: u.bytes })),
    files: files ?? [],
    exports: exports ?? [],
    problems: problems ?? [],
  };
}

/** An audit's imports, newest first (at most `limit`). */
export async function listGscImports(auditId: string, limit = 100): Promise<GscImportDto[]> {
  const { rows } = await pool().query<ImportRow>(
    `SELECT ${COLUMNS} FROM gsc_imports i WHERE i.audit_id = $1
      ORDER BY i.created_at DESC, i.id DESC LIMIT $2`,
    [auditId, limit],
  );
  return rows.map(dtoOf);
}

export async function getGscImport(auditId: string, importId: string): Promise<GscImportDto | null> {
  const { rows } = await pool().query<ImportRow>(
    `SELECT ${COLUMNS} FROM gsc_imports i WHERE i.audit_id = $1 AND i.id = $2`,
    [auditId, importId],
  );
  return rows[0] ? dtoOf(rows[0]) : null;
}
