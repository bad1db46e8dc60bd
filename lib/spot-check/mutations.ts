// Writes of a spot-check run: the run row, and what its steps store in the same transaction
// as their state change (lib/runs/runner.ts applies them), so a retried step never duplicates items.
import 'server-only';
import { pool, transaction } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import { activeRunsOf } from './data';
import type { SpotCheckBudget, StoredSpotCheckRequest } from './schema';
import type { SpotCheckSummary } from './stats';
import type { HostProbe, LiveResult, Verdict } from './types';

export async function insertSpotCheckRun(
  id: string,
  auditId: string,
  request: StoredSpotCheckRequest,
  createdBy: string,
  /** The run this one retries (POST …/{runId}/retry). */
  retryOf: string | null = null,
  /** The budget it runs with and the id of the user who started it (the per-user limit counts by it). */
  more: { budget?: SpotCheckBudget; createdById?: string | null; client?: DbClient } = {},
): Promise<void> {
  await (more.client ?? pool()).query(
    `INSERT INTO spot_check_runs (id, audit_id, request, created_by, retry_of, budget, created_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      auditId,
      JSON.stringify(request),
      createdBy,
      retryOf,
      more.budget ? JSON.stringify(more.budget) : null,
      more.createdById ?? null,
    ],
  );
}

/**
 * Inserts a run started by a signed-in user unless they already have `limit` queued or running (over
 * every audit): null when inserted, else how many they have. One user's starts take turns (an advisory
 * lock on the user), so two at once cannot both pass the limit.
 */
export async function insertSpotCheckRunWithin(
  limit: number,
  id: string,
  auditId: string,
  request: StoredSpotCheckRequest,
  by: { id: string; name: string },
  retryOf: string | null,
  budget: SpotCheckBudget,
): Promise<number | null> {
  return transaction(async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('spot-check-start:' || $1))`, [by.id]);
    const active = await activeRunsOf(client, by.id);
    if (active >= limit) return active;
    await insertSpotCheckRun(id, auditId, request, by.name, retryOf, { budget, createdById: by.id, client });
    return null;
  });
}

/** The select step's result: the finding ids to check. */
export async function storeSelection(client: DbClient, runId: string, ids: readonly number[]): Promise<void> {
  await client.query('UPDATE spot_check_runs SET finding_ids = $2, progress_total = $3 WHERE id = $1', [
    runId,
    ids,
    ids.length,
  ]);
}

export interface CheckedRow {
  findingId: number;
  list: string;
  reason: string;
  live: LiveResult;
  verdict: Verdict;
  liveReason: string | null;
  explanation: string;
}

/** Rows per INSERT: 17 arrays of 1,000 values stay far below any parameter limit. */
const BATCH = 1_000;

/** The check step's result: items (replacing any of an earlier attempt), host probes and summary. */
export async function storeCheckResults(
  client: DbClient,
  runId: string,
  rows: readonly CheckedRow[],
  probes: readonly HostProbe[],
  summary: SpotCheckSummary,
): Promise<void> {
  await client.query('DELETE FROM spot_check_items WHERE run_id = $1', [runId]);
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    const column = <T>(pick: (row: CheckedRow) => T) => batch.map(pick);
    await client.query(
      `INSERT INTO spot_check_items (run_id, finding_id, list, reason, url, chain, final_url, final_status,
         content_type, verdict, live_reason, explanation, noindex, canonical, title, text_hash, ms, checked_at, error)
       SELECT $1::uuid, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::text[],
         $8::int[], $9::text[], $10::text[], $11::text[], $12::text[], $13::bool[], $14::text[], $15::text[],
         $16::text[], $17::int[], $18::timestamptz[], $19::jsonb[])`,
      [
        runId,
        column((r) => r.findingId),
        column((r) => r.list),
        column((r) => r.reason),
        column((r) => r.live.url),
        column((r) => JSON.stringify(r.live.chain)),
        column((r) => r.live.finalUrl),
        column((r) => r.live.finalStatus),
        column((r) => r.live.contentType),
        column((r) => r.verdict),
        column((r) => r.liveReason),
        column((r) => r.explanation),
        column((r) => r.live.noindex),
        column((r) => r.live.canonical),
        column((r) => r.live.title),
        column((r) => r.live.textHash),
        column((r) => Math.round(r.live.ms)),
        column((r) => r.live.checkedAt),
        column((r) => (r.live.error ? JSON.stringify(r.live.error) : null)),
      ],
    );
  }
  await client.query(
    'UPDATE spot_check_runs SET host_probes = $2, summary = $3, progress_done = progress_total WHERE id = $1',
    [runId, JSON.stringify(probes), JSON.stringify(summary)],
  );
}
