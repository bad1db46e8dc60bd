// Runs an audit's steps in the test process, as a worker would (claim, handler, state change).
import { auditRun } from '@/lib/audits/run';
import type { AuditStep } from '@/lib/runs/phases';
import { runStep } from '@/lib/runs/runner';

export function runAuditStep(step: AuditStep, auditId: string, attempt = 1): Promise<void> {
  return runStep(auditRun, step, { runId: auditId, attempt });
}
