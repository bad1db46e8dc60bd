// The audit's add_crawl step: a crawl export given to an audit after it settled (lib/audit-runs/add-crawl.ts) is
// read into the audit's crawl partition beside the sitemap entries its ingest stored, which stay as they
// are; then the reconcile step diffs them as for any audit. Safe to run twice: it drops an earlier
// attempt's crawl rows first.
import { auditForRun } from '@/lib/audits/data';
import { ZAuditOptions } from '@/lib/audits/schema';
import type { DbClient } from '@/lib/db/types';
import { dropCrawlRows, saveCrawlResults } from '@/lib/ingest/mutations';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import { RunAbandoned } from '@/lib/runs/progress';
import type { StepHandler } from '@/lib/runs/types';
import { crawlWarnings, importCrawl, storedCrawlReport } from './ingest';

type Issue = { code: string; message: string };
type IssueWithSource = Issue & { source: string | null };

export const addCrawlStep: StepHandler<AuditStep, AuditPhase> = async ({ run, progress }) => {
  const audit = await auditForRun(run.id);
  if (!audit) throw new RunAbandoned(); // deleted since the claim
  const source = audit.sources.findLast((s) => s.role === 'crawl');
  if (!source) throw new Error(`audit ${audit.id} has no crawl export to add`);
  await dropCrawlRows(audit.id);
  const options = ZAuditOptions.parse(audit.options);
  await progress.update('crawl', 0, 0, { crawlRows: 0, crawlRowsRejected: 0 });
  const started = performance.now();
  const crawl = await importCrawl(
    audit.id,
    source,
    options,
    (rows, rejected) => progress.update('crawl', rows, 0, { crawlRows: rows, crawlRowsRejected: rejected }),
    progress.signal,
  );
  // The sitemap side's issues stay; "no crawl export" no longer holds.
  const warnings: Issue[] = [
    ...((audit.warnings ?? []) as unknown as Issue[]).filter((w) => w.code !== 'no_crawl'),
    ...crawlWarnings(crawl.report),
  ];
  const errors: IssueWithSource[] = [
    ...((audit.errors ?? []) as unknown as IssueWithSource[]),
    ...(crawl.error ? [crawl.error] : []),
  ];
  const write = (client: DbClient) =>
    saveCrawlResults(client, audit.id, {
      warnings,
      errors,
      crawlReport: storedCrawlReport(crawl.report),
      crawlRows: crawl.report?.rows ?? 0,
      crawlRowsRejected: crawl.report?.rejected ?? 0,
      crawlFacts: crawl.facts,
      crawlSha256: crawl.facts ? (crawl.report?.sha256 ?? null) : null,
      crawlSeconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    });
  if (!crawl.error && (crawl.report?.rows ?? 0) > 0) return { next: 'reconcile', write };
  // An export that could not be read leaves the audit as its sitemaps made it, with the crawl's error; it
  // settled before, so its site's history is written already.
  return { outcome: errors.length > 0 ? 'partial' : 'succeeded', write };
};
