// Review decisions: one statement changes the findings (by ids, or one batch of a filter), appends one
// decision-log row per change and moves the per-reason counts, so all three always agree.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { pool } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import { findingsParts } from '@/lib/db/partitions';
import type { Decision, DecisionsRecordedDto, TFindingFilter } from '@/lib/findings/schema';
import { auditSettingsOf, requiresConfirmedUnreached } from './approval/data';
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

export interface DecisionChange {
  decision: Decision;
  by: string;
  note: string | null;
}

/** Rows a decision by filter changes per statement (DECISION_BATCH_ROWS). Each batch is its own short
 * transaction, so the row locks and the locks on the audit's kept counts (which every decision of the
 * audit moves) are held for one batch, never for the whole filter: measured on 120,000 indexed findings, a
 * single statement held them for 18 s and every decision by id of the audit waited that long, taking pool
 * connections the reads then lacked; a batch of 1,000 holds them for 0.1–0.5 s (the latter on a loaded
 * 2-core machine). */
export function decisionBatchRows(): number {
  return Math.max(1, intEnv('DECISION_BATCH_ROWS', 1000));
}

/** SQLSTATE of a deadlock: two decisions moving the same kept counts in opposite orders. Postgres aborts
 * one; it is retried, as nothing of it was written. */
const DEADLOCK_DETECTED = '40P01';

async function withDeadlockRetry<T>(work: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= tries) throw error;
    }
  }
}

/** The tail shared by both statements below: over `changed` (id, list, reason, host, old), the log rows and
 * the kept counts of the rows whose decision moved. Both sides of a move are one upsert: a plain UPDATE
 * reads the statement's snapshot, so a decision that waited for a row lock missed a counts row another
 * decision created meanwhile (the first approval of a host, say) and left its count one too high, which
 * the bulk test caught; an upsert always meets the latest row. */
function logAndCountSql(p: { decision: string; by: string; note: string; audit: string }): string {
  return `logged AS (
       INSERT INTO decision_log (audit_id, finding_id, from_decision, to_decision, note, decided_by, decided_at)
       SELECT ${p.audit}::uuid, id, old, ${p.decision}, ${p.note}, ${p.by}, now() FROM changed ORDER BY id),
     moved AS (
       SELECT list, reason, host, old, count(*)::int AS n FROM changed WHERE old <> ${p.decision}
        GROUP BY list, reason, host, old),
     counted AS (
       INSERT INTO finding_counts (audit_id, list, reason, decision, host, n)
       SELECT ${p.audit}::uuid, list, reason, decision, host, sum(n)::int FROM (
         SELECT list, reason, host, old AS decision, -n AS n FROM moved
         UNION ALL SELECT list, reason, host, ${p.decision}::text, n FROM moved) d
        GROUP BY list, reason, decision, host
       ON CONFLICT (audit_id, list, reason, decision, host) DO UPDATE SET n = finding_counts.n + EXCLUDED.n)`;
}

/**
 * A decision by ids: every row given is locked (in id order) and read as it is once locked, so a bulk
 * decision that changed it meanwhile is seen, not a stale snapshot. A row that already has the decision is
 * `unchanged`; with a note, the note is still recorded on it (the row takes the reviewer's name, note and
 * time, and its history a row from the decision to itself), so a reviewer's note is never lost because a
 * bulk decision got to the row first. `skipped` is always 0.
 */
async function applyToIds(
  auditId: string,
  ids: number[],
  change: DecisionChange,
): Promise<DecisionsRecordedDto> {
  const p = { audit: '$1', ids: '$2', decision: '$3', by: '$4', note: '$5' };
  const { rows } = await withDeadlockRetry(() =>
    pool().query<{ updated: number; unchanged: number }>(
      `WITH target AS (
         SELECT f.id, f.list, f.reason, f.host, f.decision AS old FROM findings f
          WHERE f.audit_id = ${p.audit}::uuid AND f.id = ANY(${p.ids}::int[]) ORDER BY f.id FOR UPDATE),
       changed AS (
         UPDATE findings f SET decision = ${p.decision}, decided_by = ${p.by}, decided_at = now(), note = ${p.note}
           FROM target t
          WHERE f.audit_id = ${p.audit}::uuid AND f.id = t.id AND (t.old <> ${p.decision} OR ${p.note}::text IS NOT NULL)
         RETURNING t.id, t.list, t.reason, t.host, t.old),
       ${logAndCountSql(p)}
       SELECT (SELECT count(*)::int FROM target WHERE old <> ${p.decision}) AS updated,
              (SELECT count(*)::int FROM target WHERE old = ${p.decision}) AS unchanged`,
      [auditId, ids, change.decision, change.by, change.note],
    ),
  );
  const { updated = 0, unchanged = 0 } = rows[0] ?? {};
  return { updated, unchanged, skipped: 0 };
}

/**
 * A decision by filter, in batches of `decisionBatchRows()` matching rows taken in id order (keyset), each
 * batch one statement and so one short transaction: to every row that does not have the decision, or
 * (`onlyPending`) only to pending ones (decision-rule.ts). Rows left alone get no log row. Each batch counts
 * what it changed, skipped and found already decided from the rows it took; a row decided by someone else
 * while the decision runs is counted where its batch saw it. A decision cut short (a restart) keeps the
 * batches it committed; sent again, it finishes the rest.
 */
async function applyToFilter(
  auditId: string,
  where: string,
  whereParams: unknown[],
  change: DecisionChange,
  onlyPending: boolean,
): Promise<DecisionsRecordedDto> {
  const n = whereParams.length;
  const p = {
    decision: `$${n + 1}`,
    by: `$${n + 2}`,
    note: `$${n + 3}`,
    audit: `$${n + 4}`,
    after: `$${n + 5}`,
    limit: `$${n + 6}`,
  };
  const limit = decisionBatchRows();
  const total: DecisionsRecordedDto = { updated: 0, unchanged: 0, skipped: 0 };
  // Finding ids are positive (numbered from 1 by the reconcile).
  let after = 0;
  for (;;) {
    const params = [...whereParams, change.decision, change.by, change.note, auditId, after, limit];
    const { rows } = await withDeadlockRetry(() =>
      pool().query<{ taken: number; last: number | null; updated: number; unchanged: number }>(
        `WITH batch AS (
           SELECT f.id, f.decision FROM findings f WHERE ${where} AND f.id > ${p.after}::int
            ORDER BY f.id LIMIT ${p.limit}::int),
         target AS (
           SELECT f.id, f.list, f.reason, f.host, f.decision AS old FROM findings f
            WHERE ${where} AND f.id IN (SELECT id FROM batch) AND ${changesSql(p.decision, onlyPending)}
            ORDER BY f.id FOR UPDATE OF f),
         changed AS (
           UPDATE findings f SET decision = ${p.decision}, decided_by = ${p.by}, decided_at = now(), note = ${p.note}
             FROM target t WHERE f.audit_id = ${p.audit}::uuid AND f.id = t.id
           RETURNING t.id, t.list, t.reason, t.host, t.old),
         ${logAndCountSql(p)}
         SELECT (SELECT count(*)::int FROM batch) AS taken, (SELECT max(id) FROM batch) AS last,
                (SELECT count(*)::int FROM changed) AS updated,
                (SELECT count(*)::int FROM batch WHERE decision = ${p.decision}) AS unchanged`,
        params,
      ),
    );
    const { taken = 0, last = null, updated = 0, unchanged = 0 } = rows[0] ?? {};
    total.updated += updated;
    total.unchanged += unchanged;
    total.skipped += Math.max(0, taken - updated - unchanged);
    if (taken < limit || last === null) return total;
    after = last;
  }
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
  return 'ids' in target
    ? applyToIds(auditId, target.ids, change)
    : applyToFilter(auditId, sql, params, change, onlyPending);
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
