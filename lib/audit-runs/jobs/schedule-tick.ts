// The scheduler's tick (queue `site-schedules`, sent once a minute by pg-boss's cron): starts a run of every
// due schedule's site. The due rows are claimed (their next time written) in one short transaction under
// FOR UPDATE SKIP LOCKED, so two workers ticking at once never start one due time twice; the runs are
// started after it, outside the lock (a start copies uploads). A worker dying in between loses that due
// time: the schedule waits for its next one rather than risk a second run.
import 'server-only';
import { startSiteRun } from '@/lib/audit-runs/site-runs';
import { AppError } from '@/lib/core/errors';
import { pool, transaction } from '@/lib/db/client';
import { nextRunAt } from '@/lib/sites/schedules/cron';

/** Due schedules one tick takes; the rest are still due at the next tick, a minute later. */
const TICK_BATCH = 100;

interface DueRow {
  id: number;
  site_id: string;
  cron: string;
  timezone: string;
  from_audit_id: string | null;
}

export interface TickOutcome {
  scheduleId: number;
  siteId: string;
  auditId: string | null;
  skipped: string | null;
}

function followingRun(row: DueRow, now: Date): Date | null {
  try {
    return nextRunAt(row.cron, row.timezone, now);
  } catch (error) {
    // Validated when it was made; a time zone a later Node no longer knows must not wedge the tick.
    console.error(`[schedules] schedule ${row.id} has no next time: ${(error as Error).message}`);
    return null;
  }
}

async function claimDue(now: Date): Promise<DueRow[]> {
  return transaction(async (client) => {
    const { rows } = await client.query<DueRow>(
      `SELECT id, site_id, cron, timezone, from_audit_id FROM site_schedules
        WHERE enabled AND next_run_at <= $1
        ORDER BY next_run_at, id LIMIT ${TICK_BATCH}
        FOR UPDATE SKIP LOCKED`,
      [now],
    );
    for (const row of rows) {
      // From now, not from the missed time: a worker down for a day starts one run, not one per miss.
      await client.query('UPDATE site_schedules SET next_run_at = $2 WHERE id = $1', [
        row.id,
        followingRun(row, now),
      ]);
    }
    return rows;
  });
}

async function start(row: DueRow): Promise<TickOutcome> {
  try {
    const run = await startSiteRun({
      siteId: row.site_id,
      // A deleted audit left the schedule's from_audit_id null: the site's newest audit is repeated.
      fromAuditId: row.from_audit_id ?? undefined,
      trigger: 'schedule',
      scheduleId: row.id,
    });
    return { scheduleId: row.id, siteId: row.site_id, auditId: run.id, skipped: null };
  } catch (error) {
    if (!(error instanceof AppError)) {
      console.error(`[schedules] schedule ${row.id} could not start a run`, error);
    }
    const skipped =
      error instanceof AppError ? error.message : 'The run could not be started (see the worker log)';
    return { scheduleId: row.id, siteId: row.site_id, auditId: null, skipped };
  }
}

/** Starts the runs of the schedules due at `now`; one at a time per site (a site's run still going
 * makes the schedule skip, saying so in last_skip). */
export async function tickSchedules(now: Date = new Date()): Promise<TickOutcome[]> {
  const outcomes: TickOutcome[] = [];
  for (const row of await claimDue(now)) {
    const outcome = await start(row);
    // last_run_at is when the due time was handled, started or skipped; last_audit_id the last run started.
    await pool().query(
      `UPDATE site_schedules SET last_run_at = $2, last_skip = $3, last_audit_id = COALESCE($4, last_audit_id)
        WHERE id = $1`,
      [row.id, now, outcome.skipped, outcome.auditId],
    );
    outcomes.push(outcome);
  }
  return outcomes;
}
