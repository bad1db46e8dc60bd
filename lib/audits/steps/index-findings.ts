// The audit's follow-up step after reconciliation: build the findings' review indexes, then note when
// they were ready; and start grading the audit's sitemap files (lib/hygiene/audit), now that its prune list exists.

import { startLintAfterAudit } from '@/lib/hygiene/audit/service';
import { buildReviewIndexes, markReviewIndexesReady } from '@/lib/review/mutations';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import type { StepHandler } from '@/lib/runs/types';

export const indexFindingsStep: StepHandler<AuditStep, AuditPhase> = async ({ run }) => {
  // First, so that a failing index build does not leave the audit ungraded; it never throws.
  await startLintAfterAudit(run.id);
  const skipped = await buildReviewIndexes(run.id);
  if (skipped.length)
    console.warn(`[worker] audit ${run.id}: a URL too long for a btree entry left out ${skipped.join(', ')}`);
  await markReviewIndexesReady(run.id);
  return { done: true };
};
