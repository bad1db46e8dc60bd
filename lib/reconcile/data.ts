// Reads the reconcile job needs: the audit it works on and the sitemap files named in chart data.
import { db } from '@/lib/db/client';

/** Moves the audit into its reconcile phase if this job's attempt still owns it. */
export async function claimForReconcile(auditId: string, attempt: number) {
  const { count } = await db().audit.updateMany({
    where: { id: auditId, attempt, status: { in: ['queued', 'running'] } },
    data: { status: 'running', phase: 'reconciling', heartbeatAt: new Date(), finishedAt: null },
  });
  if (count === 0) return null;
  return db().audit.findUnique({
    where: { id: auditId },
    select: { id: true, options: true, normalization: true, warnings: true, errors: true, timings: true },
  });
}

export async function sitemapFileInfo(auditId: string, ids: number[]) {
  return db().sitemapFile.findMany({
    where: { auditId, id: { in: ids } },
    select: { id: true, url: true, uploadName: true },
  });
}

export async function finishReconcile(
  auditId: string,
  attempt: number,
  state: {
    status: 'succeeded' | 'partial';
    warnings: unknown[];
    summary: Record<string, unknown>;
    timings: Record<string, unknown>;
  },
): Promise<boolean> {
  const { count } = await db().audit.updateMany({
    where: { id: auditId, attempt, status: 'running' },
    data: {
      status: state.status,
      phase: 'done',
      progressDone: 1,
      progressTotal: 1,
      finishedAt: new Date(),
      heartbeatAt: new Date(),
      reconciledAt: new Date(),
      warnings: state.warnings as object[],
      findingsSummary: state.summary as object,
      timings: state.timings as object,
    },
  });
  return count > 0;
}
