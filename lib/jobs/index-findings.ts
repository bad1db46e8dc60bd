// The audit's follow-up step after reconciliation: build the findings' review indexes, then note when
// they were ready.
import { buildReviewIndexes, markReviewIndexesReady } from '@/lib/findings/mutations';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import type { StepHandler } from '@/lib/runs/types';

export const indexFindingsStep: StepHandler<AuditStep, AuditPhase> = async ({ run }) => {
  const skipped = await buildReviewIndexes(run.id);
  if (skipped.length)
    console.warn(`[worker] audit ${run.id}: a URL too long for a btree entry left out ${skipped.join(', ')}`);
  await markReviewIndexesReady(run.id);
  return { done: true };
};
