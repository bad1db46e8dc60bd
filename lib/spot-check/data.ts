// Reads of a spot-check: the rows of a seeded, stratified sample of an audit's findings, the
// rows a request names, and the runs and items the API shows.
import 'server-only';
import { pool } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import type { FindingList, TFindingFilter } from '@/lib/findings/schema';
import { filterSql } from '@/lib/review/filter-sql';
import { phaseLabel } from '@/lib/runs/phases';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { allocateSample } from './sample';
import type {
  SpotCheckBudget,
  SpotCheckChange,
  SpotCheckCompareCounts,
  SpotCheckItemDto,
  SpotCheckRunDto,
  StoredSpotCheckRequest,
} from './schema';

export interface SampledFinding {
  id: number;
  reason: string;
}

/**
 * A sample of `n` findings matching `filter` (its list, and any other filter), stratified by reason
 * (allocateSample), in id order. Within a reason rows are ranked by md5(seed:id): the same seed on the same
 * audit gives the same rows, another seed another sample, and no row is favoured by where it sits. One
 * read-only repeatable-read transaction, so the counts and the rows are of the same snapshot even while
 * decisions are being recorded (a filter may name a decision).
 */
export async function sampleFindings(
  auditId: string,
  filter: TFindingFilter,
  n: number,
  seed: number,
): Promise<SampledFinding[]> {
  const f = filterSql(auditId, filter);
  const client = await pool().connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const counted = await client.query<{ reason: string; n: number }>(
      `SELECT f.reason, count(*)::int AS n FROM findings f WHERE ${f.sql} GROUP BY f.reason`,
      f.params,
    );
    const quotas = Object.entries(
      allocateSample(Object.fromEntries(counted.rows.map((r) => [r.reason, r.n])), n),
    );
    if (quotas.length === 0) {
      await client.query('COMMIT');
      return [];
    }
    const next = f.params.length + 1;
    // Every matching row is hashed and ranked: for a million rows that is one sort (about a second), paid
    // once per run; a TABLESAMPLE would be cheaper but neither repeatable per seed nor stratified.
    const picked = await client.query<SampledFinding>(
      `SELECT x.id, x.reason
         FROM (SELECT f.id, f.reason,
                      row_number() OVER (PARTITION BY f.reason ORDER BY md5($${next}::text || ':' || f.id), f.id) AS rank
                 FROM findings f WHERE ${f.sql}) x
         JOIN unnest($${next + 1}::text[], $${next + 2}::int[]) AS q(reason, quota) ON q.reason = x.reason
        WHERE x.rank <= q.quota
        ORDER BY x.id`,
      [...f.params, String(seed), quotas.map(([reason]) => reason), quotas.map(([, quota]) => quota)],
    );
    await client.query('COMMIT');
    return picked.rows;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

// ── Runs and their items ─────────────────────────────────────────────────────────────────────────────

/** Rows per list, for splitting a sample across the lists it takes. */
export async function findingCountsByList(auditId: string): Promise<Record<string, number>> {
  const { rows } = await pool().query<{ list: string; n: number }>(
    `SELECT list, sum(n)::int AS n FROM finding_counts WHERE audit_id = $1 GROUP BY list`,
    [auditId],
  );
  return Object.fromEntries(rows.map((r) => [r.list, r.n]));
}

/** The given ids that are not findings of the audit. */
export async function idsNotInAudit(auditId: string, ids: readonly number[]): Promise<number[]> {
  const { rows } = await pool().query<{ id: number }>(
    `SELECT q.id FROM unnest($2::int[]) AS q(id)
      WHERE NOT EXISTS (SELECT 1 FROM findings f WHERE f.audit_id = $1 AND f.id = q.id) ORDER BY q.id`,
    [auditId, ids],
  );
  return rows.map((r) => r.id);
}

/** Rows matching a filter, counted up to `cap + 1` (enough to say "over the cap"). */
export async function countFilteredUpTo(
  auditId: string,
  filter: TFindingFilter,
  cap: number,
): Promise<number> {
  const f = filterSql(auditId, filter);
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM findings f WHERE ${f.sql} LIMIT $${f.params.length + 1}) x`,
    [...f.params, cap + 1],
  );
  return rows[0]?.n ?? 0;
}

/** The first `cap` ids matching a filter, in id order. */
export async function filteredIds(auditId: string, filter: TFindingFilter, cap: number): Promise<number[]> {
  const f = filterSql(auditId, filter);
  const { rows } = await pool().query<{ id: number }>(
    `SELECT f.id FROM findings f WHERE ${f.sql} ORDER BY f.id LIMIT $${f.params.length + 1}`,
    [...f.params, cap],
  );
  return rows.map((r) => r.id);
}

/** The ids of `ids` that are findings of the audit, in id order. */
export async function existingIds(auditId: string, ids: readonly number[]): Promise<number[]> {
  const { rows } = await pool().query<{ id: number }>(
    'SELECT id FROM findings WHERE audit_id = $1 AND id = ANY($2::int[]) ORDER BY id',
    [auditId, ids],
  );
  return rows.map((r) => r.id);
}

interface FindingToCheck {
  id: number;
  list: FindingList;
  reason: string;
  url: string;
  canonical: string | null;
  redirectUrl: string | null;
}

/** What the check step needs of a run: its audit, request, selection and the audit's profile. */
interface RunToCheck {
  auditId: string;
  request: StoredSpotCheckRequest;
  budget: SpotCheckBudget | null;
  /** When its first step was claimed: its time budget counts from then, across attempts. */
  startedAt: Date | null;
  findingIds: number[] | null;
  normalization: NormalizationProfile;
}

/** The user's queued and running spot-checks, over every audit. */
export async function activeRunsOf(client: DbClient, userId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM spot_check_runs WHERE created_by_id = $1 AND status IN ('queued', 'running')`,
    [userId],
  );
  return rows[0]?.n ?? 0;
}

export async function runToCheck(runId: string): Promise<RunToCheck | null> {
  const { rows } = await pool().query<RunToCheck>(
    `SELECT r.audit_id AS "auditId", r.request, r.budget, r.started_at AS "startedAt",
            r.finding_ids AS "findingIds", a.normalization
       FROM spot_check_runs r JOIN audits a ON a.id = r.audit_id WHERE r.id = $1`,
    [runId],
  );
  return rows[0] ?? null;
}

export async function findingsToCheck(auditId: string, ids: readonly number[]): Promise<FindingToCheck[]> {
  const { rows } = await pool().query<FindingToCheck>(
    `SELECT id, list, reason, url, canonical, redirect_url AS "redirectUrl"
       FROM findings WHERE audit_id = $1 AND id = ANY($2::int[]) ORDER BY id`,
    [auditId, ids],
  );
  return rows;
}

const RUN_COLUMNS = `r.id, r.audit_id AS "auditId", r.status, r.phase, r.progress_done AS done,
  r.progress_total AS total, r.request, r.budget, r.summary, r.error_message AS "errorMessage",
  r.created_by AS "createdBy", r.created_at AS "createdAt", r.finished_at AS "finishedAt",
  r.cancelled_by AS "cancelledBy", r.retry_of AS "retryOf",
  (SELECT count(*) FROM spot_check_runs x WHERE x.audit_id = r.audit_id
      AND (x.created_at, x.id) <= (r.created_at, r.id))::int AS number`;

type RunRow = Omit<SpotCheckRunDto, 'progress' | 'phaseLabel' | 'createdAt' | 'finishedAt'> & {
  done: number;
  total: number;
  createdAt: Date;
  finishedAt: Date | null;
};

function runDtoOf({ done, total, ...row }: RunRow): SpotCheckRunDto {
  return {
    ...row,
    phaseLabel: phaseLabel(row.phase),
    progress: { done, total },
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** An audit's runs, newest first (at most `limit`). */
export async function listSpotChecks(auditId: string, limit = 100): Promise<SpotCheckRunDto[]> {
  const { rows } = await pool().query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM spot_check_runs r WHERE r.audit_id = $1
      ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
    [auditId, limit],
  );
  return rows.map(runDtoOf);
}

export async function getSpotCheck(auditId: string, runId: string): Promise<SpotCheckRunDto | null> {
  const { rows } = await pool().query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM spot_check_runs r WHERE r.audit_id = $1 AND r.id = $2`,
    [auditId, runId],
  );
  return rows[0] ? runDtoOf(rows[0]) : null;
}

/** A page of a run's items in finding-id order, after `cursor` (a finding id). */
export async function spotCheckItems(
  runId: string,
  limit: number,
  cursor: number | undefined,
): Promise<{ items: SpotCheckItemDto[]; nextCursor: string | null }> {
  const { rows } = await pool().query<Omit<SpotCheckItemDto, 'checkedAt'> & { checkedAt: Date }>(
    `SELECT finding_id AS "findingId", list, reason, url, chain, final_url AS "finalUrl",
            final_status AS "finalStatus", content_type AS "contentType", verdict, live_reason AS "liveReason",
            explanation, noindex, canonical, title, text_hash AS "textHash", ms, checked_at AS "checkedAt", error
       FROM spot_check_items WHERE run_id = $1 AND finding_id > $2 ORDER BY finding_id LIMIT $3`,
    [runId, cursor ?? 0, limit + 1],
  );
  const page = rows.slice(0, limit).map((r) => ({ ...r, checkedAt: r.checkedAt.toISOString() }));
  const last = page.at(-1);
  return { items: page, nextCursor: rows.length > limit && last ? String(last.findingId) : null };
}

/** The finding ids of a run's items whose verdict is `error` (it could not check them), in id order. */
export async function errorFindingIds(runId: string): Promise<number[]> {
  const { rows } = await pool().query<{ id: number }>(
    `SELECT finding_id AS id FROM spot_check_items WHERE run_id = $1 AND verdict = 'error' ORDER BY finding_id`,
    [runId],
  );
  return rows.map((r) => r.id);
}

// ── Comparing two runs ───────────────────────────────────────────────────────────────────────────────
// Both runs' items joined on finding_id in SQL (each side an index range of the items' primary key), so a
// comparison of two 5,000-row runs reads no more than one page of rows into memory.

/** Over the rows both runs checked: did verdict, final status or (both 200) the page's text change? */
const BOTH = 'b.finding_id IS NOT NULL AND o.finding_id IS NOT NULL';
const VERDICT_CHANGED = 'b.verdict <> o.verdict';
const STATUS_CHANGED = 'b.final_status IS DISTINCT FROM o.final_status';
const CONTENT_CHANGED =
  'coalesce(b.final_status = 200 AND o.final_status = 200 AND b.text_hash IS DISTINCT FROM o.text_hash, false)';
const JOINED = `(SELECT * FROM spot_check_items WHERE run_id = $1) b
  FULL JOIN (SELECT * FROM spot_check_items WHERE run_id = $2) o ON o.finding_id = b.finding_id`;

export async function compareCounts(baseId: string, otherId: string): Promise<SpotCheckCompareCounts> {
  const { rows } = await pool().query<SpotCheckCompareCounts>(
    `SELECT count(*) FILTER (WHERE ${BOTH} AND NOT (${VERDICT_CHANGED} OR ${STATUS_CHANGED} OR ${CONTENT_CHANGED}))::int AS same,
            count(*) FILTER (WHERE ${BOTH} AND ${VERDICT_CHANGED})::int AS "verdictChanged",
            count(*) FILTER (WHERE ${BOTH} AND ${STATUS_CHANGED})::int AS "statusChanged",
            count(*) FILTER (WHERE ${BOTH} AND ${CONTENT_CHANGED})::int AS "contentChanged",
            count(*) FILTER (WHERE o.finding_id IS NULL)::int AS "onlyInBase",
            count(*) FILTER (WHERE b.finding_id IS NULL)::int AS "onlyInOther"
       FROM ${JOINED}`,
    [baseId, otherId],
  );
  return rows[0] as SpotCheckCompareCounts;
}

/** A page of the rows both runs checked that changed, in finding-id order, after `cursor` (a finding id). */
export async function compareChanges(
  baseId: string,
  otherId: string,
  limit: number,
  cursor: number | undefined,
): Promise<{ changes: SpotCheckChange[]; nextCursor: string | null }> {
  const { rows } = await pool().query<SpotCheckChange>(
    `SELECT b.finding_id AS "findingId", b.url,
            json_build_object('verdict', b.verdict, 'finalStatus', b.final_status, 'liveReason', b.live_reason) AS before,
            json_build_object('verdict', o.verdict, 'finalStatus', o.final_status, 'liveReason', o.live_reason) AS after,
            ${CONTENT_CHANGED} AS "contentChanged"
       FROM (SELECT * FROM spot_check_items WHERE run_id = $1) b
       JOIN (SELECT * FROM spot_check_items WHERE run_id = $2) o ON o.finding_id = b.finding_id
      WHERE b.finding_id > $3 AND (${VERDICT_CHANGED} OR ${STATUS_CHANGED} OR ${CONTENT_CHANGED})
      ORDER BY b.finding_id LIMIT $4`,
    [baseId, otherId, cursor ?? 0, limit + 1],
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { changes: page, nextCursor: rows.length > limit && last ? String(last.findingId) : null };
}
