// Writes of URL Inspection: an audit's sealed service-account key, a run and its targets, the
// per-property daily quota, and the inspections, written in batches fenced by the run's claim so that a
// cancelled or superseded worker adds nothing and a resumed run goes on after the last stored position.
import 'server-only';
import { pool, transaction } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import type { SealedKey } from '@/lib/gsc/credentials';
import type { IndexStatus } from '@/lib/gsc/inspection-schema';
import { RunAbandoned } from '@/lib/runs/progress';
import type { RunRef } from '@/lib/runs/types';

/** Replaces the audit's key: a new row (and id), so runs started under the old key stop using it. */
export async function replaceCredentials(
  auditId: string,
  property: string,
  clientEmail: string,
  sealed: SealedKey,
  by: string,
): Promise<void> {
  await transaction(async (client) => {
    await client.query('DELETE FROM gsc_credentials WHERE audit_id = $1', [auditId]);
    await client.query(
      `INSERT INTO gsc_credentials (audit_id, property, client_email, ciphertext, iv, auth_tag, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [auditId, property, clientEmail, sealed.ciphertext, sealed.iv, sealed.authTag, by],
    );
  });
}

export async function deleteCredentials(auditId: string): Promise<boolean> {
  const { rowCount } = await pool().query('DELETE FROM gsc_credentials WHERE audit_id = $1', [auditId]);
  return rowCount === 1;
}

export async function insertInspectionRun(
  id: string,
  auditId: string,
  credentialId: string,
  property: string,
  request: { sample: number; seed: number },
  by: string,
): Promise<void> {
  await pool().query(
    `INSERT INTO gsc_inspection_runs (id, audit_id, credential_id, property, request, created_by)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, auditId, credentialId, property, JSON.stringify(request), by],
  );
}

export interface InspectionTarget {
  url: string;
  fileId: number;
  key: string | null;
}

/** The select step's result, in its transaction. */
export async function storeTargets(client: DbClient, runId: string, targets: InspectionTarget[]) {
  await client.query('UPDATE gsc_inspection_runs SET targets = $2, progress_total = $3 WHERE id = $1', [
    runId,
    JSON.stringify(targets),
    targets.length,
  ]);
}

/**
 * Takes one call of the property's quota for `day` (Pacific), atomically: two runs of one property
 * never spend more than `quota` between them. False when the day's quota is spent.
 */
export async function reserveQuota(property: string, day: string, quota: number): Promise<boolean> {
  if (quota <= 0) return false;
  const { rowCount } = await pool().query(
    `INSERT INTO gsc_quota_usage AS q (property, day, used) VALUES ($1, $2, 1)
     ON CONFLICT (property, day) DO UPDATE SET used = q.used + 1 WHERE q.used < $3
     RETURNING used`,
    [property, day, quota],
  );
  return rowCount === 1;
}

export interface InspectionRow {
  position: number;
  url: string;
  key: string | null;
  fileId: number;
  status: IndexStatus | null;
  state: 'indexed' | 'not_indexed' | null;
  bucket: string | null;
  inspectedAt: Date;
  error: { code: string; message: string } | null;
}

async function insertRows(client: DbClient, runId: string, auditId: string, rows: readonly InspectionRow[]) {
  if (rows.length === 0) return;
  const records = rows.map((r) => ({
    position: r.position,
    url: r.url,
    key: r.key,
    file_id: r.fileId,
    verdict: r.status?.verdict ?? null,
    coverage_state: r.status?.coverageState ?? null,
    indexing_state: r.status?.indexingState ?? null,
    page_fetch_state: r.status?.pageFetchState ?? null,
    robots_txt_state: r.status?.robotsTxtState ?? null,
    google_canonical: r.status?.googleCanonical ?? null,
    user_canonical: r.status?.userCanonical ?? null,
    last_crawl_time: r.status?.lastCrawlTime ?? null,
    sitemaps: r.status?.sitemaps ?? [],
    state: r.state,
    bucket: r.bucket,
    inspected_at: r.inspectedAt.toISOString(),
    error: r.error,
  }));
  // A position already stored (a step re-run after its worker died mid-batch) keeps its first answer.
  await client.query(
    `INSERT INTO gsc_inspections (run_id, audit_id, position, url, key, file_id, verdict, coverage_state,
       indexing_state, page_fetch_state, robots_txt_state, google_canonical, user_canonical, last_crawl_time,
       sitemaps, state, bucket, inspected_at, error)
     SELECT $1, $2, r.position, r.url, r.key, r.file_id, r.verdict, r.coverage_state, r.indexing_state,
            r.page_fetch_state, r.robots_txt_state, r.google_canonical, r.user_canonical, r.last_crawl_time,
            r.sitemaps, r.state, r.bucket, r.inspected_at, r.error
       FROM jsonb_to_recordset($3::jsonb) AS r(position int, url text, key text, file_id int, verdict text,
            coverage_state text, indexing_state text, page_fetch_state text, robots_txt_state text,
            google_canonical text, user_canonical text, last_crawl_time timestamptz, sitemaps text[],
            state text, bucket text, inspected_at timestamptz, error jsonb)
     ON CONFLICT (run_id, position) DO NOTHING`,
    [runId, auditId, JSON.stringify(records)],
  );
}

/** Stores a batch while the step runs, with the run's progress, only while the step's claim is this
 * worker's; otherwise (cancelled, deleted, superseded) nothing is written and RunAbandoned is thrown. */
export async function storeBatch(
  run: RunRef,
  auditId: string,
  rows: readonly InspectionRow[],
  done: number,
): Promise<void> {
  const kept = await transaction(async (client) => {
    const { rowCount } = await client.query(
      `UPDATE gsc_inspection_runs SET progress_done = $3, heartbeat_at = now(), resume_at = NULL
        WHERE id = $1 AND attempt = $2 AND step = 'inspect' AND claimed_at IS NOT NULL AND status = 'running'`,
      [run.id, run.attempt, done],
    );
    if (rowCount !== 1) return false;
    await insertRows(client, run.id, auditId, rows);
    return true;
  });
  if (!kept) throw new RunAbandoned();
}

/** Google's quota answer that stopped a run's calls (gsc_inspection_runs.quota_stop). */
export interface QuotaStop {
  status: number;
  code: string;
  message: string;
  limit: 'day' | 'minute';
  /** When it was answered (ISO). */
  at: string;
  /** The Pacific day it spent (limit 'day'), and the quota the run counted with. */
  day: string | null;
  quota: number;
}

/** The last rows and the wait, in the transaction that puts the run to wait for the quota: the next day's
 * when our own count ran out, or after Google's quota answer (`google`), which is recorded with the run
 * and, for the day's quota, marks the property's day spent so no run of the property calls again. */
export async function storeWaiting(
  client: DbClient,
  runId: string,
  auditId: string,
  rows: readonly InspectionRow[],
  done: number,
  resumeAt: Date,
  google: { property: string; stop: QuotaStop } | null = null,
): Promise<void> {
  await insertRows(client, runId, auditId, rows);
  await client.query(
    `UPDATE gsc_inspection_runs SET progress_done = $2, resume_at = $3, quota_stop = COALESCE($4, quota_stop)
      WHERE id = $1`,
    [runId, done, resumeAt, google ? JSON.stringify(google.stop) : null],
  );
  if (google?.stop.day) {
    await client.query(
      `INSERT INTO gsc_quota_usage AS q (property, day, used) VALUES ($1, $2, $3)
       ON CONFLICT (property, day) DO UPDATE SET used = GREATEST(q.used, EXCLUDED.used)`,
      [google.property, google.stop.day, google.stop.quota],
    );
  }
}

/** The last rows and the summary over every stored inspection (of every day), with the outcome. */
export async function storeFinished(
  client: DbClient,
  runId: string,
  auditId: string,
  rows: readonly InspectionRow[],
  done: number,
): Promise<void> {
  await insertRows(client, runId, auditId, rows);
  await client.query(
    `UPDATE gsc_inspection_runs SET progress_done = $2, resume_at = NULL, summary = (
       SELECT jsonb_build_object(
         'inspected', count(*),
         'indexed', count(*) FILTER (WHERE state = 'indexed'),
         'notIndexed', count(*) FILTER (WHERE state = 'not_indexed'),
         'errors', count(*) FILTER (WHERE error IS NOT NULL),
         'byBucket', COALESCE((SELECT jsonb_object_agg(bucket, n) FROM (
             SELECT bucket, count(*) AS n FROM gsc_inspections
              WHERE run_id = $1 AND state = 'not_indexed' GROUP BY bucket) b), '{}'::jsonb))
         FROM gsc_inspections WHERE run_id = $1)
      WHERE id = $1`,
    [runId, done],
  );
}
