// What a settled audit does to its site's history, run by the audit's site_history step right after its
// outcome (lib/sites/jobs/history.ts), in one transaction under the site's row lock: the audit joins its site,
// its unreached rows are confirmed against the previous complete run (when its crawl differs from that
// run's), and a complete run writes its change events and becomes the site's state
// (lib/sites/changes/mutations.ts). Partial runs stop after the
// confirmation: no events, no removal advanced, the state left as the last complete run wrote it. Safe to
// run twice (a retried step): a run's events are written once and a row is confirmed once.
import 'server-only';
import { attachSite } from '@/lib/audits/mutations';
import type { DbClient } from '@/lib/db/types';
import {
  applyCompleteRun,
  confirmUnreached,
  lockSiteOfRun,
  markRepeatedCrawl,
  withoutNestedLoops,
} from './changes/mutations';

export async function settleSiteRun(
  client: DbClient,
  auditId: string,
  outcome: 'succeeded' | 'partial',
): Promise<void> {
  if (!(await attachSite(client, auditId))) return;
  const site = await lockSiteOfRun(client, auditId);
  if (!site) return;
  // Histories are written in the order runs finished. One that comes after a run that finished later (its
  // step retried after a worker died) would rewind the state: it is left out of the history instead.
  if (site.lastCompleteAuditId !== auditId && site.finishedBeforeState) {
    await client.query(
      'UPDATE audits SET changes_applied_at = now() WHERE id = $1 AND changes_applied_at IS NULL',
      [auditId],
    );
    return;
  }
  // Before the events move last_complete_audit_id: "previous" is the run before this one. A run that is
  // already the site's state (settled again) has no previous run to compare with here.
  const previous = site.lastCompleteAuditId !== auditId ? site.lastCompleteAuditId : null;
  await withoutNestedLoops(client, async () => {
    // Only a crawl that differs from the previous one is new evidence.
    if (previous && !(await markRepeatedCrawl(client, auditId, previous))) {
      await confirmUnreached(client, auditId, previous);
    }
    if (outcome === 'succeeded' && site.changesAppliedAt === null) {
      await applyCompleteRun(client, site, auditId);
    }
  });
}
