// The audit's follow-up step after its outcome: its site's history (lib/sites/settle.ts — the two-crawl
// confirmation of its unreached rows and, for a complete run, its change events and the site's new URL
// state), written in the transaction that hands the run on to its review indexes; then the site's webhooks
// hear of the run, change counts included. A history that cannot be written is logged and skipped (the
// site's next complete run compares with the last one written): the review indexes must still follow.
import 'server-only';
import { transaction } from '@/lib/db/client';
import type { DbClient } from '@/lib/db/types';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import type { StepHandler } from '@/lib/runs/types';
import { settleSiteRun } from '@/lib/sites/settle';
import { announceRunFinished } from '@/lib/sites/webhooks/service';

async function settledAs(client: DbClient, id: string) {
  const { rows } = await client.query<{ status: string; reconciled: boolean }>(
    'SELECT status::text AS status, reconciled_at IS NOT NULL AS reconciled FROM audits WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

export const siteHistoryStep: StepHandler<AuditStep, AuditPhase> = async ({ run }) => {
  let reconciled = true;
  try {
    await transaction(async (client) => {
      const audit = await settledAs(client, run.id);
      if (!audit) return;
      reconciled = audit.reconciled;
      if (audit.status === 'succeeded' || audit.status === 'partial')
        await settleSiteRun(client, run.id, audit.status);
    });
  } catch (error) {
    console.error(`[worker] the site history of audit ${run.id} could not be written`, error);
  }
  await announceRunFinished(run.id).catch((error: Error) =>
    console.error(`[worker] could not announce audit ${run.id} to its webhooks: ${error.message}`),
  );
  // An audit without a crawl export has no findings, so no review indexes to build (its sitemap files are
  // graded when it ends: the audit run kind's onFinished).
  return reconciled ? { next: 'review_indexes' } : { done: true };
};
