// The audit's ingest step: reads the sitemap tree and the crawl export into Postgres and says what comes
// next (reconcile, or the audit's outcome). Safe to run twice: it starts by removing an earlier attempt's rows.

import { auditForRun } from '@/lib/audits/data';
import { attachSite } from '@/lib/audits/mutations';
import { ZAuditOptions } from '@/lib/audits/schema';
import { DEFAULT_CRAWL_MAX_BYTES, newCrawlReport } from '@/lib/crawl/read';
import { CrawlImportError, type CrawlReport } from '@/lib/crawl/types';
import { ingestLimits } from '@/lib/db/config';
import type { DbClient } from '@/lib/db/types';
import { budgetBytesFromEnv } from '@/lib/inflate/budget';
import type { LoadFacts } from '@/lib/ingest/copy-lines';
import { encodeCrawlExport } from '@/lib/ingest/crawl-import';
import { previousCopies } from '@/lib/ingest/data';
import { walkLimits } from '@/lib/ingest/limits';
import {
  beginCrawlLoad,
  beginEntryLoad,
  type CrawlLoad,
  createFileRecord,
  finishFileRecord,
  type IngestResults,
  resetIngestRows,
  saveIngestResults,
} from '@/lib/ingest/mutations';
import { walkSitemapTree } from '@/lib/ingest/sitemap-tree';
import type { TreeIssue, TreeSummary } from '@/lib/ingest/tree-types';
import { NetError } from '@/lib/net/types';
import type { AuditPhase, AuditStep } from '@/lib/runs/phases';
import { RunAbandoned } from '@/lib/runs/progress';
import type { StepHandler } from '@/lib/runs/types';
import type { NormalizationProfile } from '@/lib/urls/normalize';

export interface CrawlOutcome {
  report: CrawlReport | null;
  error: TreeIssue | null;
  /** Set when the rows were stored. */
  facts: LoadFacts | null;
}

/** Reads the crawl export on its own thread and COPYs the encoded rows into the audit's partition. */
export async function importCrawl(
  auditId: string,
  source: { url: string | null; storedPath: string | null; fileName: string | null },
  options: ReturnType<typeof ZAuditOptions.parse>,
  progress: (rows: number, rejected: number) => Promise<void>,
  signal: AbortSignal,
): Promise<CrawlOutcome> {
  const label = source.fileName ?? source.url ?? 'crawl export';
  let writer: CrawlLoad | null = null;
  try {
    writer = await beginCrawlLoad(auditId);
    const chunks = encodeCrawlExport(
      {
        profile: options.normalization as NormalizationProfile,
        source: { url: source.url, storedPath: source.storedPath },
        read: {
          fileName: label,
          maxUrlChars: walkLimits().maxLocChars,
          maxBytes: budgetBytesFromEnv('CRAWL_MAX_INFLATED_BYTES', DEFAULT_CRAWL_MAX_BYTES),
          ...(options.crawlFormat ? { format: options.crawlFormat } : {}),
          ...(options.columnMap ? { columnMap: options.columnMap } : {}),
        },
        maxBytes: ingestLimits().maxUploadBytes,
      },
      signal,
    );
    let next = await chunks.next();
    while (!next.done) {
      await writer.write(next.value.text, next.value.written);
      await progress(next.value.rows, next.value.rejected);
      next = await chunks.next();
    }
    const result = next.value;
    if (!result.ok) {
      await writer.rollback();
      return failedCrawl(label, result.error, result.report);
    }
    await writer.commit();
    return { report: result.report, error: null, facts: result.facts };
  } catch (error) {
    await writer?.rollback().catch(() => {});
    return failedCrawl(label, error, null);
  }
}

/** An export that cannot be read (or fetched) is the audit's error, with what was read until then;
 * anything else is a failure of the job. */
function failedCrawl(label: string, error: unknown, report: CrawlReport | null): CrawlOutcome {
  if (!(error instanceof CrawlImportError || error instanceof NetError)) throw error;
  return {
    report: report ?? newCrawlReport(),
    error: { code: error.code, message: `${label}: ${error.message}`, source: label },
    facts: null,
  };
}

/** The audit's warnings about its crawl export: the reader's, and the rows it skipped. */
export function crawlWarnings(report: CrawlReport | null): { code: string; message: string }[] {
  const warnings = (report?.warnings ?? []).map((w) => ({ code: w.code, message: w.message }));
  if (report && report.rejected > 0) {
    warnings.push({
      code: 'crawl_rows_rejected',
      message: `${report.rejected.toLocaleString('en-US')} crawl rows were skipped as invalid (the first ${Math.min(100, report.rejections.length)} are listed with their line numbers)`,
    });
  }
  return warnings;
}

/** What the audit keeps of the reader's report (audits.crawl_report). */
export function storedCrawlReport(report: CrawlReport | null): Record<string, unknown> | null {
  return report
    ? {
        format: report.format,
        mappedColumns: report.mappedColumns,
        unmappedColumns: report.unmappedColumns,
        rejections: report.rejections,
      }
    : null;
}

function decideStatus(
  tree: TreeSummary,
  crawl: CrawlOutcome,
): { status: 'succeeded' | 'partial' | 'failed'; message: string | null } {
  if (tree.entries === 0 && tree.files > 0 && tree.filesFailed === tree.files) {
    const first = tree.errors[0];
    return { status: 'failed', message: `No sitemap file could be read${first ? `: ${first.message}` : ''}` };
  }
  if (tree.files === 0) return { status: 'failed', message: 'No sitemap file was found' };
  if (tree.errors.length > 0 || crawl.error) return { status: 'partial', message: null };
  return { status: 'succeeded', message: null };
}

export const ingestStep: StepHandler<AuditStep, AuditPhase> = async ({ run, progress: reporter }) => {
  const audit = await auditForRun(run.id);
  if (!audit) throw new RunAbandoned(); // deleted since the claim
  await resetIngestRows(audit.id);
  const options = ZAuditOptions.parse(audit.options);
  const profile = options.normalization as NormalizationProfile;
  const sitemapUrls = audit.sources.filter((s) => s.role === 'sitemap' && s.url).map((s) => s.url as string);
  const uploads = audit.sources
    .filter((s) => s.role === 'sitemap' && s.storedPath)
    .map((s) => ({ fileName: s.fileName ?? 'upload', storedPath: s.storedPath as string }));

  // The sitemap tree (main thread) and the crawl export (its own thread) are read at the same time.
  // The phase follows the sitemap tree while it is read; the crawl's progress shows in its row counts.
  const started = performance.now();
  const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));
  let sitemapsDone = false;
  const stopCrawl = new AbortController();
  const crawlSource = audit.sources.find((s) => s.role === 'crawl');
  const crawlRun: Promise<CrawlOutcome & { seconds: number | null }> = crawlSource
    ? importCrawl(
        audit.id,
        crawlSource,
        options,
        (rows, rejected) => {
          const counts = { crawlRows: rows, crawlRowsRejected: rejected };
          return sitemapsDone ? reporter.update('crawl', rows, 0, counts) : reporter.count(counts);
        },
        AbortSignal.any([reporter.signal, stopCrawl.signal]),
      ).then((outcome) => ({ ...outcome, seconds: seconds(started) }))
    : Promise.resolve({ report: null, error: null, facts: null, seconds: null });
  // Settled even if the sitemap side throws first, so the thread never outlives the job.
  crawlRun.catch(() => {});

  let position = 0;
  await reporter.update('sitemaps', 0, sitemapUrls.length + uploads.length);
  // A site's files fetched by URL are fetched conditionally against its previous audit (a 304 reuses
  // the stored copy); a first audit, or one without a site, finds none and fetches as always.
  const previous =
    audit.siteId && sitemapUrls.length > 0
      ? await previousCopies(audit.siteId, audit.id, audit.normalization)
      : undefined;
  const entries = await beginEntryLoad(audit.id, profile);
  let tree: TreeSummary;
  let sitemapFacts: LoadFacts;
  try {
    tree = await walkSitemapTree(
      sitemapUrls,
      uploads,
      {
        createFile: (record) => createFileRecord(audit.id, ++position, record),
        openEntries: async (fileId) => entries.open(fileId),
        finishFile: finishFileRecord,
        reuseEntries: (fileId, copy, limit) => entries.reuse(fileId, copy, limit),
        progress: (done, total, summary) =>
          reporter.update('sitemaps', done, total, {
            sitemapFiles: summary.files,
            sitemapFilesFailed: summary.filesFailed,
            sitemapEntries: summary.entries,
            reusedFiles: summary.reused,
          }),
      },
      { limits: walkLimits(), signal: reporter.signal, ...(previous ? { previous } : {}) },
    );
    await reporter.update('indexing_sitemaps', tree.files, tree.files);
    await entries.commit();
    sitemapFacts = entries.facts();
  } catch (error) {
    await entries.rollback().catch(() => {});
    stopCrawl.abort();
    await crawlRun.catch(() => {});
    throw error;
  }
  const sitemapSeconds = seconds(started);
  sitemapsDone = true;
  if (crawlSource) await reporter.update('crawl', 0, 0);

  // A warning about one file says which file, whoever shows it (the audit page, the report, the API).
  const warnings: { code: string; message: string }[] = tree.warnings.map(({ code, message, source }) => ({
    code,
    message: source && !message.includes(source) ? `${source}: ${message}` : message,
  }));
  const crawl = await crawlRun;
  // An audit that crawls the site itself has its crawl next, as a step of its own (lib/crawler/steps/crawl-site.ts);
  // a list crawl needs declared URLs to fetch.
  const crawler = options.crawler;
  const crawlNext =
    crawler !== undefined && tree.files > tree.filesFailed && (crawler.mode === 'site' || tree.entries > 0);
  if (!crawlSource && !crawlNext) {
    warnings.push({
      code: 'no_crawl',
      message: 'No crawl export was given: the sitemap is not reconciled until one is added',
    });
  }
  warnings.push(...crawlWarnings(crawl.report));
  const { status, message } = decideStatus(tree, crawl);
  const siteCrawlNext = crawlNext && status !== 'failed';
  const reconcileNext =
    status !== 'failed' && tree.entries > 0 && !crawl.error && (crawl.report?.rows ?? 0) > 0;
  const results: IngestResults = {
    warnings,
    errors: [...tree.errors, ...(crawl.error ? [crawl.error] : [])],
    crawlReport: storedCrawlReport(crawl.report),
    crawlRows: crawl.report?.rows ?? 0,
    crawlRowsRejected: crawl.report?.rejected ?? 0,
    crawlSha256: crawl.facts ? (crawl.report?.sha256 ?? null) : null,
    sitemapFacts,
    crawlFacts: crawl.facts,
    timings: { sitemaps: sitemapSeconds, crawl: crawl.seconds, ingest: seconds(started) },
  };
  const write = async (client: DbClient) => {
    await saveIngestResults(client, audit.id, results);
    // An audit without a crawl export settles here; an upload joins its site with its outcome.
    if (!reconcileNext && !siteCrawlNext) await attachSite(client, audit.id);
  };
  if (siteCrawlNext) return { next: 'crawl_site', write };
  if (reconcileNext) return { next: 'reconcile', write };
  // Its sitemap is still a run of its site (change events need no crawl): its history follows.
  return status === 'failed'
    ? { outcome: status, message, write }
    : { outcome: status, message, write, followUp: 'site_history' };
};
