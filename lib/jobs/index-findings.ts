// After reconciliation: build the findings' review indexes, then note when they were ready.
import { buildReviewIndexes, markReviewIndexesReady } from '@/lib/findings/mutations';
import type { AuditJobData } from './queue';

export async function runIndexFindings(data: AuditJobData): Promise<void> {
  await buildReviewIndexes(data.auditId);
  await markReviewIndexesReady(data.auditId);
}
