// The ingest job: reads the audit's sitemap tree and crawl export into Postgres, then writes the
// audit's final status. Safe to run twice: it starts by removing rows of any earlier attempt.
import { createReadStream } from 'node:fs';
import { ZAuditOptions } from '@/lib/audits/schema';
import { newCrawlReport, readCrawlBatches } from '@/lib/crawl/read';
import { CrawlImportError, type CrawlReport } from '@/lib/crawl/types';
import { ingestLimits } from '@/lib/db/config';
import {
  beginCrawlLoad,
  beginEntryLoad,
  claimAudit,
  createFileRecord,
  type FinalState,
  failAudit,
  finalizeAudit,
  finishFileRecord,
  resetIngestRows,
} from '@/lib/ingest/mutations';
import { walkSitemapTree } from '@/lib/ingest/sitemap-tree';
import type { TreeIssue, TreeSummary } from '@/lib/ingest/tree-types';
import { safeFetch } from '@/lib/net/safe-fetch';
import { NetError } from '@/lib/net/types';
import type { NormalizationProfile } from '@/lib/urls/normalize';
import { ProgressReporter } from './progress';
import { type AuditJobData, enqueue } from './queue';

interface CrawlSource {
  url: string | null;
  storedPath: string | null;
  fileName: string | null;
}

interface CrawlOutcome {
  report: CrawlReport | null;
  error: TreeIssue | null;
}

async function openCrawlSource(source: CrawlSource, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  if (source.storedPath) return createReadStream(source.storedPath, { highWaterMark: 256 * 1024 });
  const url = source.url as string;
  const limits = ingestLimits();
  const response = await safeFetch(url, { maxBytes: limits.maxUploadBytes, signal, timeoutMs: 15 * 60_000 });
  if (response.status >= 400) {
    response.body.destroy();
    throw new NetError('http_status', url, `${url} answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  return response.body;
}

async function importCrawl(
  auditId: string,
  source: CrawlSource,
  options: ReturnType<typeof ZAuditOptions.parse>,
  reporter: ProgressReporter,
): Promise<CrawlOutcome> {
  const label = source.fileName ?? source.url ?? 'crawl export';
  const report = newCrawlReport();
  let writer: Awaited<ReturnType<typeof beginCrawlLoad>> | null = null;
  try {
    const body = await openCrawlSource(source, reporter.signal);
    writer = await beginCrawlLoad(auditId, options.normalization as NormalizationProfile);
    for await (const batch of readCrawlBatches(body, report, {
      format: options.crawlFormat,
      columnMap: options.columnMap,
      fileName: label,
    })) {
      for (const row of await writer.write(batch)) {
        // The reader only checks the scheme; a URL that does not parse is a bad row like any other.
        report.rows--;
        report.rejected++;
        if (report.rejections.length < 100)
          report.rejections.push({
            line: row.line,
            reason: `url "${row.url.slice(0, 200)}" is not a valid URL`,
          });
      }
      await reporter.update('crawl', report.rows, 0, {
        crawlRows: report.rows,
        crawlRowsRejected: report.rejected,
      });
    }
    report.rejections.sort((a, b) => a.line - b.line);
    if (report.rows === 0) {
      throw new CrawlImportError('no_valid_rows', `none of the ${report.rejected} rows has a valid URL`);
    }
    await reporter.update('indexing crawl', report.rows, report.rows);
    await writer.commit();
    return { report, error: null };
  } catch (error) {
    await writer?.rollback().catch(() => {});
    if (error instanceof CrawlImportError || error instanceof NetError) {
      return { report, error: { code: error.code, message: `${label}: ${error.message}`, source: label } };
    }
    throw error;
  }
}

function decideStatus(
  tree: TreeSummary,
  crawl: CrawlOutcome,
): { status: FinalState['status']; message: string | null } {
  if (tree.entries === 0 && tree.files > 0 && tree.filesFailed === tree.files) {
    const first = tree.errors[0];
    return { status: 'failed', message: `No sitemap file could be read${first ? `: ${first.message}` : ''}` };
  }
  if (tree.files === 0) return { status: 'failed', message: 'No sitemap file was found' };
  if (tree.errors.length > 0 || crawl.error) return { status: 'partial', message: null };
  return { status: 'succeeded', message: null };
}

export async function runIngest(data: AuditJobData): Promise<void> {
  const audit = await claimAudit(data.auditId, data.attempt);
  if (!audit) return; // deleted, finished, or superseded by a newer attempt
  const reporter = new ProgressReporter(audit.id, data.attempt);
  try {
    await resetIngestRows(audit.id);
    const options = ZAuditOptions.parse(audit.options);
    const profile = options.normalization as NormalizationProfile;
    const sitemapUrls = audit.sources
      .filter((s) => s.role === 'sitemap' && s.url)
      .map((s) => s.url as string);
    const uploads = audit.sources
      .filter((s) => s.role === 'sitemap' && s.storedPath)
      .map((s) => ({ fileName: s.fileName ?? 'upload', storedPath: s.storedPath as string }));

    let position = 0;
    await reporter.update('sitemaps', 0, sitemapUrls.length + uploads.length);
    const entries = await beginEntryLoad(audit.id, profile);
    let tree: TreeSummary;
    try {
      tree = await walkSitemapTree(
        sitemapUrls,
        uploads,
        {
          createFile: (record) => createFileRecord(audit.id, ++position, record),
          openEntries: async (fileId) => entries.open(fileId),
          finishFile: finishFileRecord,
          progress: (done, total, summary) =>
            reporter.update('sitemaps', done, total, {
              sitemapFiles: summary.files,
              sitemapFilesFailed: summary.filesFailed,
              sitemapEntries: summary.entries,
            }),
        },
        { limits: ingestLimits(), signal: reporter.signal },
      );
      await reporter.update('indexing sitemaps', tree.files, tree.files);
      await entries.commit();
    } catch (error) {
      await entries.rollback().catch(() => {});
      throw error;
    }

    const warnings: { code: string; message: string }[] = tree.warnings.map(({ code, message }) => ({
      code,
      message,
    }));
    const crawlSource = audit.sources.find((s) => s.role === 'crawl');
    let crawl: CrawlOutcome = { report: null, error: null };
    if (crawlSource) {
      await reporter.update('crawl', 0, 0);
      crawl = await importCrawl(audit.id, crawlSource, options, reporter);
    } else {
      warnings.push({
        code: 'no_crawl',
        message: 'No crawl export was given: the sitemap cannot be reconciled',
      });
    }
    for (const w of crawl.report?.warnings ?? []) warnings.push({ code: w.code, message: w.message });
    if (crawl.report && crawl.report.rejected > 0) {
      warnings.push({
        code: 'crawl_rows_rejected',
        message: `${crawl.report.rejected.toLocaleString('en-US')} crawl rows were skipped as invalid (the first ${Math.min(100, crawl.report.rejections.length)} are listed with their line numbers)`,
      });
    }
    const { status, message } = decideStatus(tree, crawl);
    const reconcileNext =
      status !== 'failed' && tree.entries > 0 && !crawl.error && (crawl.report?.rows ?? 0) > 0;
    const finalized = await finalizeAudit(audit.id, data.attempt, {
      reconcileNext,
      status,
      warnings,
      errors: [...tree.errors, ...(crawl.error ? [crawl.error] : [])],
      crawlReport: crawl.report
        ? {
            format: crawl.report.format,
            mappedColumns: crawl.report.mappedColumns,
            unmappedColumns: crawl.report.unmappedColumns,
            rejections: crawl.report.rejections,
          }
        : null,
      crawlRows: crawl.report?.rows ?? 0,
      crawlRowsRejected: crawl.report?.rejected ?? 0,
      errorMessage: message,
    });
    if (finalized && reconcileNext) await enqueue('reconcile', data);
  } catch (error) {
    if (reporter.signal.aborted) return; // deleted or superseded: nothing to report on
    console.error(`[worker] ingest of audit ${audit.id} failed`, error);
    await failAudit(audit.id, data.attempt, 'The ingest failed unexpectedly; see the worker log for details');
  } finally {
    reporter.stop();
  }
}
