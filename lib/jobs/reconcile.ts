// The reconcile job: after ingest, diff the declared set against the crawl in Postgres, store the
// findings, add the sanity warnings and write the audit's final status.
import { ZAuditOptions } from '@/lib/audits/schema';
import { failAudit } from '@/lib/ingest/mutations';
import { claimForReconcile, finishReconcile, sitemapFileInfo } from '@/lib/reconcile/data';
import { reconcileAudit } from '@/lib/reconcile/mutations';
import { reasonsPerFile, sanityWarnings } from '@/lib/reconcile/summary';
import { ProgressReporter } from './progress';
import { type AuditJobData, enqueue } from './queue';

export async function runReconcile(data: AuditJobData): Promise<void> {
  const audit = await claimForReconcile(data.auditId, data.attempt);
  if (!audit) return; // deleted, finished, or superseded
  const reporter = new ProgressReporter(audit.id, data.attempt);
  try {
    await reporter.update('reconciling', 0, 1);
    const started = performance.now();
    const options = ZAuditOptions.parse(audit.options);
    const outcome = await reconcileAudit(audit.id, {
      exact: options.normalization === 'exact',
      crawlTime: options.crawlTime ? new Date(options.crawlTime) : null,
    });
    const fileIds = [
      ...new Set(outcome.byFile.map((r) => r.fileId).filter((id): id is number => id !== null)),
    ];
    const byFile = reasonsPerFile(outcome.byFile, await sitemapFileInfo(audit.id, fileIds));
    const previous = (audit.warnings ?? []) as { code: string; message: string }[];
    const errors = (audit.errors ?? []) as unknown[];
    const finished = await finishReconcile(audit.id, data.attempt, {
      status: errors.length > 0 ? 'partial' : 'succeeded',
      warnings: [...previous, ...sanityWarnings(outcome.facts, outcome.pruneTotal, outcome.crawlTime)],
      summary: {
        crawlTime: outcome.crawlTime?.toISOString() ?? null,
        declaredKeys: outcome.facts.declared,
        crawledKeys: outcome.facts.crawled,
        matchedKeys: outcome.facts.matched,
        addExcluded: outcome.addExcluded,
        byFile,
      },
      timings: {
        ...((audit.timings ?? {}) as Record<string, unknown>),
        reconcile: Number(((performance.now() - started) / 1000).toFixed(2)),
      },
    });
    if (finished) await enqueue('index-findings', data);
  } catch (error) {
    if (reporter.signal.aborted) return;
    console.error(`[worker] reconcile of audit ${audit.id} failed`, error);
    await failAudit(
      audit.id,
      data.attempt,
      'The reconciliation failed unexpectedly; see the worker log for details',
    );
  } finally {
    reporter.stop();
  }
}
