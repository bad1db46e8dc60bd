// The audit's reconcile step: diff the declared set against the crawl in Postgres, store the findings, add
// the sanity warnings, and settle the audit's outcome (its review indexes follow as their own step).

import { attachSite } from '@/lib/audits/mutations';
import { ZAuditOptions } from '@/lib/audits/schema';
import type { DbClient } from '@/lib/db/types';
import { reconcileInputs, sitemapFileInfo } from '@/lib/reconcile/data';
import { reconcileAudit, saveReconcileResults } from '@/lib/reconcile/mutations';
import {
  canonicalPatternWarning,
  crawlMismatchWarning,
  reasonsPerFile,
  sanityWarnings,
  signalWarnings,
} from '@/lib/reconcile/summary';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import { RunAbandoned } from '@/lib/runs/progress';
import type { StepHandler } from '@/lib/runs/types';

export const reconcileStep: StepHandler<AuditStep, AuditPhase> = async ({ run, progress, signal }) => {
  const audit = await reconcileInputs(run.id);
  if (!audit) throw new RunAbandoned(); // deleted since the claim
  await progress.update('reconciling', 0, 1);
  const started = performance.now();
  const options = ZAuditOptions.parse(audit.options);
  const outcome = await reconcileAudit(
    audit.id,
    {
      exact: options.normalization === 'exact',
      crawlTime: options.crawlTime ? new Date(options.crawlTime) : null,
      serverErrors: options.serverErrors ?? 'hold',
    },
    signal,
  );
  const fileIds = new Set(outcome.byFile.map((r) => r.fileId).filter((id): id is number => id !== null));
  for (const example of outcome.multiFile.examples) for (const id of example.fileIds) fileIds.add(id);
  const files = await sitemapFileInfo(audit.id, [...fileIds]);
  const byFile = reasonsPerFile(outcome.byFile, files);
  const previous = (audit.warnings ?? []) as { code: string; message: string }[];
  const errors = (audit.errors ?? []) as unknown[];
  const results = {
    warnings: [
      ...previous,
      // The crawl_mismatch warning leads: it says the lists below cannot be trusted as they are.
      ...[crawlMismatchWarning(outcome.crawlMatch, outcome.heldMismatch)].filter((w) => w !== null),
      ...sanityWarnings(outcome.facts, outcome.pruneTotal, outcome.crawlTime, outcome.heldRecent),
      ...signalWarnings(outcome.signals, outcome.multiFile, files),
      ...[canonicalPatternWarning(outcome.canonicalPatterns, outcome.heldPattern)].filter((w) => w !== null),
    ],
    summary: {
      crawlTime: outcome.crawlTime?.toISOString() ?? null,
      declaredKeys: outcome.facts.declared,
      crawledKeys: outcome.facts.crawled,
      matchedKeys: outcome.facts.matched,
      addExcluded: outcome.addExcluded,
      otherHosts: outcome.otherHosts,
      byFile,
    },
    timings: {
      ...((audit.timings ?? {}) as Record<string, unknown>),
      reconcile: Number(((performance.now() - started) / 1000).toFixed(2)),
    },
  };
  const settled = errors.length > 0 ? 'partial' : 'succeeded';
  return {
    outcome: settled,
    // Its site's history, then its review indexes: both after the outcome, which neither holds back.
    followUp: 'site_history',
    write: async (client: DbClient) => {
      await saveReconcileResults(client, audit.id, results);
      // An upload joins its site with its outcome, so the site lists it from then on.
      await attachSite(client, audit.id);
    },
  };
};
