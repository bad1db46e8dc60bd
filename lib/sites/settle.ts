// What settling an audit's outcome does for its site, in the same transaction as the outcome (so a run is
// in its site's history exactly when it is settled, and a crash in between leaves neither): the audit joins
// its site, its unreached rows are confirmed against the previous complete run, and a complete run writes
// its change events and becomes the site's state (lib/sites/changes/mutations.ts). Partial runs stop after
// the confirmation: no events, no removal advanced, the state left as the last complete run wrote it.
import 'server-only';
import type { DbClient } from '@/lib/db/types';
import { applyCompleteRun, confirmUnreached, lockSiteOfRun, withoutNestedLoops } from './changes/mutations';
import { attachSite } from './mutations';

export async function settleSiteRun(
  client: DbClient,
  auditId: string,
  outcome: 'succeeded' | 'partial',
): Promise<void> {
  if (!(await attachSite(client, auditId))) return;
  const site = await lockSiteOfRun(client, auditId);
  if (!site) return;
  // Before the events move last_complete_audit_id: "previous" is the run before this one. A run that is
  // already the site's state (settled again) has no previous run to compare with here.
  const previous = site.lastCompleteAuditId !== auditId ? site.lastCompleteAuditId : null;
  await withoutNestedLoops(client, async () => {
    if (previous) await confirmUnreached(client, auditId, previous);
    if (outcome === 'succeeded' && site.changesAppliedAt === null) {
      await applyCompleteRun(client, site, auditId);
    }
  });
}
