// The audit's crawl_site step: the site crawled by the built-in crawler (lib/crawler/engine.ts) after the
// ingest read the sitemaps, its pages loaded into crawl_pages like an export's, then the reconcile step.
// The crawl runs on a thread with a capped heap (lib/crawler/thread.ts). Resumable: the frontier is in
// Postgres (lib/crawler/mutations.ts), so a step re-run after its worker died carries on from the last
// flush instead of starting over.
import { crawlerSettingsOf } from '@/lib/audits/crawler-schema';
import { auditForRun } from '@/lib/audits/data';
import { attachSite } from '@/lib/audits/mutations';
import { ZAuditOptions } from '@/lib/audits/schema';
import type { DbClient } from '@/lib/db/types';
import { saveCrawlResults } from '@/lib/ingest/mutations';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import { RunAbandoned } from '@/lib/runs/progress';
import type { StepHandler } from '@/lib/runs/types';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { crawlIssues } from '../issues';
import { loadCrawledPages } from '../mutations';
import { crawlInThread } from '../thread';

type Issue = { code: string; message: string };
type IssueWithSource = Issue & { source: string | null };

export const crawlSiteStep: StepHandler<AuditStep, AuditPhase> = async ({ run, progress }) => {
  const audit = await auditForRun(run.id);
  if (!audit) throw new RunAbandoned(); // deleted since the claim
  const options = ZAuditOptions.parse(audit.options);
  const crawler = options.crawler;
  if (!crawler) throw new Error(`audit ${audit.id} does not crawl the site`);
  const profile = options.normalization as NormalizationProfile;
  const started = performance.now();
  await progress.update('crawling', 0, 0);
  const totals = await crawlInThread({
    auditId: audit.id,
    settings: crawlerSettingsOf(crawler),
    profile,
    signal: progress.signal,
    onFlush: (p) =>
      void progress
        .update('crawling', p.fetched, p.fetched + p.queued, { crawlRows: p.fetched })
        .catch(() => {}),
  });
  const facts = await loadCrawledPages(audit.id);
  const issues = crawlIssues(totals);
  // The sitemap side's issues stay; the crawl's are added.
  const warnings: Issue[] = [
    ...((audit.warnings ?? []) as unknown as Issue[]).filter((w) => !w.code.startsWith('crawler_')),
    ...issues.warnings,
  ];
  const errors: IssueWithSource[] = [
    ...((audit.errors ?? []) as unknown as IssueWithSource[]).filter((e) => !e.code.startsWith('crawler_')),
    ...issues.errors,
  ];
  const reconcileNext = facts.rows > 0 && audit.sitemapEntries > 0;
  const write = async (client: DbClient) => {
    await saveCrawlResults(client, audit.id, {
      warnings,
      errors,
      crawlReport: null,
      crawlRows: facts.rows,
      crawlRowsRejected: 0,
      crawlFacts: facts,
      crawlSha256: null,
      crawlSeconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    });
    if (!reconcileNext) await attachSite(client, audit.id);
  };
  if (reconcileNext) return { next: 'reconcile', write };
  return {
    outcome: 'partial',
    message: issues.errors[0]?.message ?? 'The crawl found nothing to reconcile the sitemap with',
    write,
    followUp: 'site_history',
  };
};
