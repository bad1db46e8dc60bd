// Runs the reconciliation of one audit in Postgres: temp sets, findings loaded into the audit's
// partition and indexed in one transaction, counts per (list, reason, decision), chart and sanity facts.
import { pool } from '@/lib/db/client';
import { createAttachedPartition, dropPartition, PartitionLoad, partitionName } from '@/lib/db/partitions';
import {
  addFindingsSql,
  aggregateSql,
  analyzeSql,
  countsInsertSql,
  crawledDuplicatesSql,
  crawledSql,
  crawledViewSql,
  declaredDuplicatesSql,
  declaredFindingsSql,
  declaredSql,
  declaredViewSql,
  factsSql,
  fileBasesSql,
  hostsNotCrawledSql,
  looseSql,
  sectionsSql,
  undeclaredSql,
} from './sql';
import type { FileReasonRow, ReconcileFacts } from './summary';

export interface ReconcileOptions {
  /** url_variant needs exact keys: with the lenient profile the loose key adds little and is skipped. */
  exact: boolean;
  /** Overrides the crawl time (else the latest crawled_at of the crawl). */
  crawlTime: Date | null;
}

export interface ReconcileOutcome {
  facts: ReconcileFacts;
  crawlTime: Date | null;
  addExcluded: { non200: number; noindex: number; canonicalised: number };
  byFile: FileReasonRow[];
  pruneTotal: number;
}

const emptyLooseSql =
  'CREATE TEMP TABLE cl ON COMMIT DROP AS SELECT NULL::text AS loose_key, NULL::text AS url WHERE false';

/** Removes an earlier reconcile of the audit (its findings, decisions and counts). */
export async function resetFindings(auditId: string): Promise<void> {
  await dropPartition('findings', auditId);
  await dropPartition('decision_log', auditId);
  await pool().query('DELETE FROM finding_counts WHERE audit_id = $1', [auditId]);
}

/** Ingest stored the number of distinct keys; when every keyed entry is distinct there is nothing to merge. */
async function hasNoDuplicateEntries(load: PartitionLoad, auditId: string): Promise<boolean> {
  const { rows } = await load.query(
    `SELECT (SELECT count(key) FROM sitemap_entries WHERE audit_id = $1) = a.sitemap_unique_urls AS unique
       FROM audits a WHERE a.id = $1`,
    [auditId],
  );
  return rows[0]?.unique === true;
}

const UNMATCHED = new Set(['unreached_by_crawl', 'url_variant', 'newer_than_crawl', 'section_not_crawled']);

/** Counts per list/reason/decision/host (stored) and per file/reason (chart data) in one scan. */
async function aggregateFindings(load: PartitionLoad, auditId: string) {
  const { rows } = await load.query(aggregateSql(load.part));
  const counts = rows.filter((r) => r.by_list);
  await load.query(countsInsertSql, [auditId, JSON.stringify(counts)]);
  const byFile: FileReasonRow[] = rows
    .filter((r) => !r.by_list && r.list !== 'add')
    .map((r) => ({ fileId: r.file_id as number | null, reason: r.reason as string, n: r.n as number }));
  const unmatchedRows = counts.filter((r) => r.list !== 'add' && UNMATCHED.has(r.reason));
  return {
    byFile,
    pruneTotal: counts.filter((r) => r.list === 'prune').reduce((sum, r) => sum + r.n, 0),
    unmatched: unmatchedRows.reduce((sum, r) => sum + r.n, 0),
    unmatchedHosts: [...new Set(unmatchedRows.map((r) => r.host as string))],
  };
}

export async function reconcileAudit(auditId: string, options: ReconcileOptions): Promise<ReconcileOutcome> {
  await resetFindings(auditId);
  const load = await PartitionLoad.begin('findings', auditId);
  try {
    // Hash joins and sorts over a million keys each want more than the default 4 MB of work memory.
    await load.query("SET LOCAL work_mem = '512MB'");
    // Duplicate keys are rare: when there are none, the partitions serve as the keyed sets directly
    // (temporary views outlive the transaction, unlike the temporary tables: dropped again below).
    await load.query('DROP VIEW IF EXISTS pg_temp.d, pg_temp.c');
    const analyze = ['u', 'cl', 'sec', 'fo'];
    const views: string[] = [];
    if (await hasNoDuplicateEntries(load, auditId)) {
      await load.query(declaredViewSql(auditId));
      views.push('pg_temp.d');
    } else {
      await load.query(declaredDuplicatesSql, [auditId]);
      await load.query(declaredSql, [auditId]);
      analyze.push('d');
    }
    await load.query(crawledDuplicatesSql, [auditId]);
    const crawlDuplicates = (await load.query('SELECT count(*)::int AS n FROM ck')).rows[0].n as number;
    if (crawlDuplicates === 0) {
      await load.query(crawledViewSql(auditId));
      await load.query(`ANALYZE "${partitionName('crawl_pages', auditId)}"`);
      views.push('pg_temp.c');
    } else {
      await load.query(crawledSql, [auditId]);
      analyze.push('c');
    }
    await load.query(undeclaredSql);
    await load.query(options.exact ? looseSql : emptyLooseSql);
    await load.query(sectionsSql);
    await load.query(fileBasesSql, [auditId]);
    await load.query(analyzeSql(analyze));
    const f = (await load.query(factsSql)).rows[0];
    const crawlTime = options.crawlTime ?? f.latest_crawl;
    await load.query(declaredFindingsSql(load.part), [auditId, options.exact, crawlTime]);
    const added = (await load.query(addFindingsSql(load.part), [auditId])).rows[0];
    const aggregate = await aggregateFindings(load, auditId);
    const facts: ReconcileFacts = {
      declared: f.declared,
      crawled: f.crawled,
      matched: f.declared - aggregate.unmatched,
      latestCrawl: f.latest_crawl,
      newestLastmod: f.newest_lastmod,
      hostsNotCrawled: (await load.query(hostsNotCrawledSql, [aggregate.unmatchedHosts])).rows[0].hosts,
    };
    const addExcluded = { non200: added.non200, noindex: added.noindex, canonicalised: added.canonicalised };
    const { byFile, pruneTotal } = aggregate;
    if (views.length > 0) await load.query(`DROP VIEW ${views.join(', ')}`);
    await load.commit();
    await createAttachedPartition('decision_log', auditId);
    return {
      facts,
      crawlTime,
      addExcluded,
      byFile,
      pruneTotal,
    };
  } catch (error) {
    await load.rollback().catch(() => {});
    throw error;
  }
}
