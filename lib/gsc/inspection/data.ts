// Reads of URL Inspection: an audit's key (its public part for the API, its sealed bytes for
// the worker), the declared entries a run samples, runs and their inspections.
import 'server-only';
import { pool } from '@/lib/db/client';
import type { SealedKey } from '@/lib/gsc/credentials';
import type {
  GscCredentialsDto,
  GscInspectionItemDto,
  GscInspectionRunDto,
  GscInspectionSummary,
} from '@/lib/gsc/inspection-schema';
import { phaseLabel, type RunStatus } from '@/lib/runs/phases';
import type { InspectionTarget } from './mutations';

/** The audit's key as the API shows it (never the key itself), with its id; null when none is set. */
export async function credentialsOf(auditId: string): Promise<(GscCredentialsDto & { id: string }) | null> {
  const { rows } = await pool().query<{
    id: string;
    property: string;
    clientEmail: string;
    createdAt: Date;
    createdBy: string;
  }>(
    `SELECT id, property, client_email AS "clientEmail", created_at AS "createdAt", created_by AS "createdBy"
       FROM gsc_credentials WHERE audit_id = $1`,
    [auditId],
  );
  const row = rows[0];
  return row ? { ...row, createdAt: row.createdAt.toISOString() } : null;
}

/** The sealed key a run was started with; null when it was removed or replaced since. */
export async function sealedCredentials(credentialId: string): Promise<SealedKey | null> {
  const { rows } = await pool().query<SealedKey>(
    `SELECT ciphertext, iv, auth_tag AS "authTag" FROM gsc_credentials WHERE id = $1`,
    [credentialId],
  );
  return rows[0] ?? null;
}

/** Declared entries per sitemap file. */
export async function declaredCounts(auditId: string): Promise<Record<string, number>> {
  const { rows } = await pool().query<{ fileId: number; n: number }>(
    `SELECT file_id AS "fileId", count(*)::int AS n FROM sitemap_entries WHERE audit_id = $1 GROUP BY file_id`,
    [auditId],
  );
  return Object.fromEntries(rows.map((r) => [String(r.fileId), r.n]));
}

/**
 * `quota` entries of each file, ranked by a hash of the seed and the entry (the same seed picks the same
 * URLs), interleaved across files (every file's first pick, then every file's second, …) so that a run
 * the day's quota cuts short has still looked into every file. A URL declared in two files is inspected
 * once, for the first.
 */
export async function sampleEntries(
  auditId: string,
  quotas: Record<string, number>,
  seed: number,
): Promise<InspectionTarget[]> {
  const files = Object.keys(quotas).map(Number);
  const { rows } = await pool().query<InspectionTarget>(
    `SELECT x.loc AS url, x.file_id AS "fileId", x.key
       FROM (SELECT e.file_id, e.loc, e.key,
                    row_number() OVER (PARTITION BY e.file_id
                      ORDER BY md5($2::text || ':' || e.file_id || ':' || e.position), e.position) AS rank
               FROM sitemap_entries e WHERE e.audit_id = $1 AND e.file_id = ANY($3::int[])) x
       JOIN unnest($3::int[], $4::int[]) AS q(file_id, quota) ON q.file_id = x.file_id
      WHERE x.rank <= q.quota
      ORDER BY x.rank, x.file_id`,
    [auditId, seed, files, files.map((f) => quotas[String(f)] ?? 0)],
  );
  const seen = new Set<string>();
  return rows.filter((r) => {
    const id = r.key ?? r.url;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** What the inspect step needs of its run. */
export async function runToInspect(runId: string) {
  const { rows } = await pool().query<{
    auditId: string;
    property: string;
    credentialId: string | null;
    targets: InspectionTarget[] | null;
    stored: number;
    errors: number;
  }>(
    `SELECT r.audit_id AS "auditId", r.property, r.credential_id AS "credentialId", r.targets,
            (SELECT count(*)::int FROM gsc_inspections i WHERE i.run_id = r.id) AS stored,
            (SELECT count(*)::int FROM gsc_inspections i WHERE i.run_id = r.id AND i.error IS NOT NULL) AS errors
       FROM gsc_inspection_runs r WHERE r.id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

/** The run's audit and request, for the select step. */
export async function runToSelect(runId: string) {
  const { rows } = await pool().query<{ auditId: string; request: { sample: number; seed: number } }>(
    `SELECT audit_id AS "auditId", request FROM gsc_inspection_runs WHERE id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

const RUN_COLUMNS = `id, audit_id AS "auditId", status, phase, progress_done AS done, progress_total AS total,
  property, request, resume_at AS "resumeAt", summary, quota_stop AS "quotaStop", error_message AS "errorMessage",
  created_by AS "createdBy", created_at AS "createdAt", finished_at AS "finishedAt", cancelled_by AS "cancelledBy"`;

interface RunRow {
  id: string;
  auditId: string;
  status: RunStatus;
  phase: string;
  done: number;
  total: number;
  property: string;
  request: { sample: number; seed: number };
  resumeAt: Date | null;
  summary: GscInspectionSummary | null;
  quotaStop: (GscInspectionRunDto['quotaStop'] & { day?: string | null; quota?: number }) | null;
  errorMessage: string | null;
  createdBy: string;
  createdAt: Date;
  finishedAt: Date | null;
  cancelledBy: string | null;
}

function runDtoOf({
  done,
  total,
  resumeAt,
  createdAt,
  finishedAt,
  quotaStop,
  ...row
}: RunRow): GscInspectionRunDto {
  // This wait is the one Google's per-minute answer started (not a later wait on the day's count).
  const waitingForMinute =
    row.phase === 'waiting_for_quota' &&
    quotaStop?.limit === 'minute' &&
    resumeAt !== null &&
    resumeAt.getTime() - Date.parse(quotaStop.at) <= 120_000;
  return {
    ...row,
    // The phase names the day's quota; a wait on Google's per-minute answer is a minute long.
    phaseLabel: waitingForMinute
      ? "Waiting a minute for Search Console's per-minute quota"
      : phaseLabel(row.phase),
    quotaStop: quotaStop
      ? {
          status: quotaStop.status,
          code: quotaStop.code,
          message: quotaStop.message,
          limit: quotaStop.limit,
          at: quotaStop.at,
        }
      : null,
    progress: { done, total },
    // Kept from the last wait until the step writes again; only a waiting run has one.
    resumeAt: row.phase === 'waiting_for_quota' && resumeAt ? resumeAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    finishedAt: finishedAt?.toISOString() ?? null,
  };
}

/** An audit's runs, newest first. */
export async function listInspectionRuns(auditId: string, limit = 100): Promise<GscInspectionRunDto[]> {
  const { rows } = await pool().query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM gsc_inspection_runs WHERE audit_id = $1
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [auditId, limit],
  );
  return rows.map(runDtoOf);
}

export async function getInspectionRun(auditId: string, runId: string): Promise<GscInspectionRunDto | null> {
  const { rows } = await pool().query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM gsc_inspection_runs WHERE audit_id = $1 AND id = $2`,
    [auditId, runId],
  );
  return rows[0] ? runDtoOf(rows[0]) : null;
}

/** A page of a run's inspections in the order they were made, after `cursor` (a position). */
export async function inspectionItems(
  runId: string,
  limit: number,
  cursor: number | undefined,
): Promise<{ items: GscInspectionItemDto[]; nextCursor: string | null }> {
  const { rows } = await pool().query<
    Omit<GscInspectionItemDto, 'lastCrawlTime' | 'inspectedAt'> & {
      lastCrawlTime: Date | null;
      inspectedAt: Date;
    }
  >(
    `SELECT position, url, file_id AS "fileId", verdict, coverage_state AS "coverageState",
            indexing_state AS "indexingState", page_fetch_state AS "pageFetchState",
            robots_txt_state AS "robotsTxtState", google_canonical AS "googleCanonical",
            user_canonical AS "userCanonical", last_crawl_time AS "lastCrawlTime", sitemaps, state, bucket,
            inspected_at AS "inspectedAt", error
       FROM gsc_inspections WHERE run_id = $1 AND position > $2 ORDER BY position LIMIT $3`,
    [runId, cursor ?? -1, limit + 1],
  );
  const page = rows.slice(0, limit).map((r) => ({
    ...r,
    sitemaps: r.sitemaps ?? [],
    lastCrawlTime: r.lastCrawlTime?.toISOString() ?? null,
    inspectedAt: r.inspectedAt.toISOString(),
  }));
  const last = page.at(-1);
  return { items: page, nextCursor: rows.length > limit && last ? String(last.position) : null };
}
