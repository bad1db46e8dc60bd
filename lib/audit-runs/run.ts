// The audit run kind: ingest → (crawl_site →) reconcile → review indexes (a crawl added later: add_crawl → reconcile → …). The one place that says which steps an audit
// goes through, which phases it reports and what each step's handler is (lib/runs does the rest).

import { settleUnfinishedIngest } from '@/lib/audits/mutations';
import { AUDIT_PHASES, type AuditPhase, type AuditStep } from '@/lib/runs/phases';
import type { RunKind } from '@/lib/runs/types';

export const auditRun: RunKind<AuditStep, AuditPhase> = {
  name: 'audit',
  noun: 'audit',
  table: 'audits',
  phases: AUDIT_PHASES,
  counters: {
    sitemapFiles: 'sitemap_files',
    sitemapFilesFailed: 'sitemap_files_failed',
    sitemapEntries: 'sitemap_entries',
    reusedFiles: 'reused_files',
    crawlRows: 'crawl_rows',
    crawlRowsRejected: 'crawl_rows_rejected',
  },
  // An audit that ends mid-ingest counts what it stored, and its unread file says why it was not read.
  onFail: (client, id) => settleUnfinishedIngest(client, id, 'failed'),
  onCancel: (client, id) => settleUnfinishedIngest(client, id, 'cancelled'),
  // Webhooks of the audit's site hear of every finished run (lib/sites/webhooks): a settled one once its
  // site history is written (the site_history step), so their change counts are in the announcement.
  // And an audit that read its sitemaps but will not be reconciled (no crawl, a reconciliation that failed
  // or was cancelled) gets its sitemap lint now; a reconciled one gets it after its review indexes.
  onFinished: async (id) => {
    await (await import('@/lib/hygiene/audit/service'))
      .startLintIfUnreconciled(id)
      .catch((error: Error) =>
        console.error(`[worker] could not start the sitemap lint of audit ${id}: ${error.message}`),
      );
    await (await import('@/lib/sites/webhooks/service')).announceRunFinished(id, 'unsettled');
  },
  steps: [
    {
      name: 'ingest',
      queue: 'ingest',
      phase: 'starting',
      waitingPhase: 'queued',
      failure: 'The ingest failed unexpectedly; see the worker log for details',
      handler: async () => (await import('@/lib/audits/steps/ingest')).ingestStep,
      // The files read stay, as the record of how far it got (their counters were settled by the cancel);
      // the entries and crawl rows it loaded go.
      discard: async (id) => (await import('@/lib/ingest/mutations')).dropIngestRows(id),
    },
    {
      // Only for an audit given its crawl export after it settled (lib/audit-runs/add-crawl.ts): the sitemap
      // entries it read stay, the crawl is read, and the reconcile step follows.
      name: 'add_crawl',
      queue: 'add-crawl',
      phase: 'crawl',
      waitingPhase: 'queued',
      failure: 'The crawl export could not be imported; see the worker log for details',
      handler: async () => (await import('@/lib/audits/steps/add-crawl')).addCrawlStep,
      discard: async (id) => (await import('@/lib/ingest/mutations')).dropCrawlRows(id),
    },
    {
      // An audit that crawls the site itself (options.crawler): after the ingest, the built-in crawler
      // fetches the site; its frontier is in Postgres, so a step re-run after a dead worker resumes it.
      name: 'crawl_site',
      queue: 'crawl-site',
      phase: 'crawling',
      waitingPhase: 'queued',
      failure: 'The crawl failed unexpectedly; see the worker log for details',
      handler: async () => (await import('@/lib/crawler/steps/crawl-site')).crawlSiteStep,
      discard: async (id) => (await import('@/lib/crawler/mutations')).dropCrawlState(id),
    },
    {
      name: 'reconcile',
      queue: 'reconcile',
      phase: 'reconciling',
      waitingPhase: 'reconcile_queued',
      failure: 'The reconciliation failed unexpectedly; see the worker log for details',
      handler: async () => (await import('@/lib/audits/steps/reconcile')).reconcileStep,
      discard: async (id) => (await import('@/lib/reconcile/mutations')).resetFindings(id),
    },
    {
      // The site's history (lib/sites/settle.ts): right after the outcome, by the worker that settled it, so
      // a 1,000,000-URL run's ~10 s of confirmation and change events never hold the outcome back; never
      // fails (the indexes follow).
      name: 'site_history',
      queue: 'site-history',
      phase: 'done',
      waitingPhase: 'done',
      followUp: true,
      inline: true,
      failure:
        "The site's history could not be written for this run; its next complete run compares with the one before",
      handler: async () => (await import('@/lib/sites/jobs/history')).siteHistoryStep,
    },
    {
      name: 'review_indexes',
      queue: 'index-findings',
      phase: 'done',
      waitingPhase: 'done',
      followUp: true,
      failure: 'The review indexes could not be built; reviewing works, more slowly',
      handler: async () => (await import('@/lib/audits/steps/index-findings')).indexFindingsStep,
    },
  ],
};
