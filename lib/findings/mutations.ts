// Review decisions: one statement changes the findings (by ids or by filter), appends one decision-log
// row per change and moves the per-reason counts, so all three always agree.
import 'server-only';
import { auditSettingsOf } from '@/lib/audits/data';
import { pool } from '@/lib/db/client';
import { findingsParts } from '@/lib/db/partitions';
import { AppError } from '@/lib/errors';
import { requiresConfirmedUnreached } from '@/lib/sites/confirm/data';
import {
  changesSql,
  confirmedUnreachedRequiredMessage,
  heldBulkApprovalMessage,
  NOT_CONFIRMED_ACROSS_CRAWLS_SQL,
  spotCheckRequiredMessage,
  UNCONFIRMED_SQL,
} from './decision-rule';
import { filterSql } from './filter-sql';
import { reviewIndexes } from './indexes';
import type { Decision, DecisionsRecordedDto, TFindingFilter } from './schema';

export interface DecisionChange {
  decision: Decision;
  by: string;
  note: string | null;
}

/**
 * Applies a decision to the findings selected by `where` (already scoped to the audit): to every one that
 * does not have it, or (`onlyPending`) only to pending ones (decision-rule.ts). Rows left alone get no log
 * row. Counts what changed, what was skipped and what already had the decision, from the same statement.
 */
async function apply(
  auditId: string,
  where: string,
  whereParams: unknown[],
  change: DecisionChange,
  onlyPending: boolean,
): Promise<DecisionsRecordedDto> {
  const n = whereParams.length;
  const params = [...whereParams, change.decision, change.by, change.note, auditId];
  const p = { decision: `$${n + 1}`, by: `$${n + 2}`, note: `$${n + 3}`, audit: `$${n + 4}` };
  const { rows } = await pool().query<{ updated: number; unchanged: number; matched: number }>(
    `WITH matched AS (
       SELECT f.decision, count(*)::int AS n FROM findings f WHERE ${where} GROUP BY f.decision),
     target AS (
       SELECT f.id, f.list, f.reason, f.host, f.decision AS old FROM findings f
        WHERE ${where} AND ${changesSql(p.decision, onlyPending)}
        FOR UPDATE),
     changed AS (
       UPDATE findings f SET decision = ${p.decision}, decided_by = ${p.by}, decided_at = now(), note = ${p.note}
         FROM target t WHERE f.audit_id = ${p.audit}::uuid AND f.id = t.id
       RETURNING t.id, t.list, t.reason, t.host, t.old),
     logged AS (
       INSERT INTO decision_log (audit_id, finding_id, from_decision, to_decision, note, decided_by, decided_at)
       SELECT ${p.audit}::uuid, id, old, ${p.decision}, ${p.note}, ${p.by}, now() FROM changed ORDER BY id),
     moved AS (SELECT list, reason, host, old, count(*)::int AS n FROM changed GROUP BY list, reason, host, old),
     decremented AS (
       UPDATE finding_counts c SET n = c.n - m.n FROM moved m
        WHERE c.audit_id = ${p.audit}::uuid AND c.list = m.list AND c.reason = m.reason AND c.host = m.host
          AND c.decision = m.old),
     incremented AS (
       INSERT INTO finding_counts (audit_id, list, reason, decision, host, n)
       SELECT ${p.audit}::uuid, list, reason, ${p.decision}, host, sum(n)::int FROM moved GROUP BY list, reason, host
       ON CONFLICT (audit_id, list, reason, decision, host) DO UPDATE SET n = finding_counts.n + EXCLUDED.n)
     SELECT (SELECT count(*)::int FROM changed) AS updated,
            (SELECT coalesce(sum(n), 0)::int FROM matched WHERE decision = ${p.decision}) AS unchanged,
            (SELECT coalesce(sum(n), 0)::int FROM matched) AS matched`,
    params,
  );
  const { updated = 0, unchanged = 0, matched = 0 } = rows[0] ?? {};
  // A row another reviewer decided meanwhile is counted where this statement's snapshot saw it.
  return { updated, unchanged, skipped: Math.max(0, matched - updated - unchanged) };
}

/** What a decision applies to: rows the reviewer picked (each changes whatever it holds), or every row
 * matching a filter (only pending ones change unless `override` says decided ones may too). */
export type DecisionTarget = { ids: number[] } | { filter: TFindingFilter; override?: boolean };

/**
 * With the site's requireConfirmedUnreached on, an approval that would change a guarded row not confirmed
 * across two crawls is refused whole (409 conflict); likewise, with the audit's requireSpotCheckForUnreached
 * on, one that would change a guarded row without a confirming check (decision-rule.ts) is refused whole, for ids and filters alike: nothing is approved
 * silently and nothing half way, and the message says how many rows lack the check and what to do. (A run
 * finishing between this count and the decision can only have checked rows meanwhile.)
 */
async function refuseUnconfirmed(
  auditId: string,
  where: string,
  whereParams: unknown[],
  onlyPending: boolean,
): Promise<void> {
  const approved = `$${whereParams.length + 1}`;
  const count = async (guard: string) => {
    const { rows } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM findings f
        WHERE ${where} AND ${changesSql(approved, onlyPending)} AND ${guard}`,
      [...whereParams, 'approved'],
    );
    return rows[0]?.n ?? 0;
  };
  // The site's rule first: no spot-check can make up for a row the previous crawl reached.
  if (await requiresConfirmedUnreached(auditId)) {
    const n = await count(NOT_CONFIRMED_ACROSS_CRAWLS_SQL);
    if (n > 0) throw new AppError('conflict', confirmedUnreachedRequiredMessage(n));
  }
  if (!(await auditSettingsOf(auditId))?.requireSpotCheckForUnreached) return;
  const n = await count(UNCONFIRMED_SQL);
  if (n > 0) throw new AppError('spot_check_required', spotCheckRequiredMessage(n));
}

/** An approval by filter, or of a selection of several rows, that would change held rows is refused
 * whole (decision-rule.ts: heldBulkApprovalMessage); one row picked alone is a reviewer's own call. */
async function refuseHeldInBulk(
  where: string,
  whereParams: unknown[],
  onlyPending: boolean,
  picked: number | null,
  heldList: boolean,
): Promise<void> {
  if (picked === 1) return;
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM findings f
      WHERE ${where} AND ${changesSql(`$${whereParams.length + 1}`, onlyPending)} AND f.list = 'held'`,
    [...whereParams, 'approved'],
  );
  const n = rows[0]?.n ?? 0;
  // A filter over the held list is refused even when no row matches yet: what it would approve tomorrow
  // (after a spot-check, say) is still held.
  if (n > 0 || heldList) throw new AppError('conflict', heldBulkApprovalMessage(n));
}

export async function decide(
  auditId: string,
  target: DecisionTarget,
  change: DecisionChange,
): Promise<DecisionsRecordedDto> {
  const { sql, params, onlyPending } =
    'ids' in target
      ? {
          sql: 'f.audit_id = $1 AND f.id = ANY($2::int[])',
          params: [auditId, target.ids],
          onlyPending: false,
        }
      : { ...filterSql(auditId, target.filter), onlyPending: !target.override };
  if (change.decision === 'approved') {
    const picked = 'ids' in target ? target.ids.length : null;
    await refuseHeldInBulk(
      sql,
      params,
      onlyPending,
      picked,
      'filter' in target && target.filter.list === 'held',
    );
    await refuseUnconfirmed(auditId, sql, params, onlyPending);
  }
  return apply(auditId, sql, params, change, onlyPending);
}

/** `decide` by ids, answering how many rows changed. */
export async function decideByIds(auditId: string, ids: number[], change: DecisionChange): Promise<number> {
  return (await decide(auditId, { ids }, change)).updated;
}

/** `decide` by filter (pending rows only), answering how many rows changed. */
export async function decideByFilter(
  auditId: string,
  filter: TFindingFilter,
  change: DecisionChange,
): Promise<number> {
  return (await decide(auditId, { filter }, change)).updated;
}

/** SQLSTATE of "index row size exceeds btree version 4 maximum". */
const PROGRAM_LIMIT_EXCEEDED = '54000';

/** Notes on the audit that its findings' review indexes are built (the UI and the benchmark read it). */
export async function markReviewIndexesReady(auditId: string): Promise<void> {
  await pool().query(
    `UPDATE audits SET findings_summary = jsonb_set(coalesce(findings_summary, '{}'), '{indexedAt}', to_jsonb(now()))
      WHERE id = $1`,
    [auditId],
  );
}

/** Builds the review indexes that are missing, CONCURRENTLY (decisions are never blocked), then VACUUM
 * ANALYZE (statistics; index-only counts). Re-runnable after a crash: an interrupted concurrent build
 * leaves an invalid index, which is dropped and built again. Returns the indexes a value too large for
 * them left out. */
export async function buildReviewIndexes(auditId: string): Promise<string[]> {
  const skipped: string[] = [];
  // One table, or the two parts a split reconcile wrote; none when the audit was deleted or re-reconciled.
  for (const part of await findingsParts(auditId)) {
    for (const index of reviewIndexes(part)) {
      const { rows: state } = await pool().query<{ valid: boolean }>(
        'SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1',
        [index.name],
      );
      if (state[0]?.valid) continue;
      if (state[0]) await pool().query(`DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`);
      try {
        await pool().query(`CREATE INDEX CONCURRENTLY "${index.name}" ${index.definition}`);
      } catch (error) {
        // A btree entry holds at most about 2,700 bytes: a declared URL that long (2,048 characters of
        // non-ASCII text, or a raised SITEMAP_MAX_LOC_CHARS) cannot be in the URL indexes. Those sorts
        // then scan instead; every other index is still built.
        if ((error as { code?: string }).code !== PROGRAM_LIMIT_EXCEEDED) throw error;
        await pool().query(`DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`);
        skipped.push(index.name);
      }
    }
    await pool().query(`VACUUM (ANALYZE) "${part}"`);
  }
  return skipped;
}
