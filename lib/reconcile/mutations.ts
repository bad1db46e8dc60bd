// Runs the reconciliation of one audit in Postgres: temp sets, findings loaded into the audit's
// partition and indexed in one transaction, counts per (list, reason, decision), chart and sanity facts.
import type pg from 'pg';
import { pool, transaction } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
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
  await pool().query(`DROP TABLE IF EXISTS "${stagingName(auditId)}"`);
  await dropPartition('decision_log', auditId);
  await pool().query('DELETE FROM finding_counts WHERE audit_id = $1', [auditId]);
}

/** What the ingest learnt about the two sets (null where it could not tell, see lib/urls/key-tally.ts). */
interface IngestFacts {
  sitemapUnique: number;
  sitemapDuplicates: number | null;
  newestLastmod: Date | null;
  crawlRows: number;
  crawlDuplicates: number | null;
  latestCrawl: Date | null;
}

async function ingestFacts(load: PartitionLoad, auditId: string): Promise<IngestFacts> {
  const { rows } = await load.query(
    `SELECT sitemap_unique_urls AS "sitemapUnique", sitemap_duplicate_keys AS "sitemapDuplicates",
            sitemap_newest_lastmod AS "newestLastmod", crawl_rows AS "crawlRows",
            crawl_duplicate_keys AS "crawlDuplicates", crawl_latest_at AS "latestCrawl"
       FROM audits WHERE id = $1`,
    [auditId],
  );
  if (!rows[0]) throw new Error(`audit ${auditId} not found`);
  return rows[0] as IngestFacts;
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

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;

/** The keyed sets d and c and the helper tables of one session (temporary objects are per session). */
async function prepareSets(query: Query, auditId: string, known: IngestFacts, exact: boolean) {
  // Hash joins and sorts over a million keys each want more than the default 4 MB of work memory.
  await query("SET LOCAL work_mem = '512MB'");
  // Duplicate keys are rare: when there are none, the partitions serve as the keyed sets directly
  // (temporary views outlive the transaction, unlike the temporary tables: dropped again at the end).
  await query('DROP VIEW IF EXISTS pg_temp.d, pg_temp.c');
  const analyze = ['u', 'cl', 'sec', 'fo'];
  const views: string[] = [];
  if (known.sitemapDuplicates === 0) {
    await query(declaredViewSql(auditId));
    views.push('pg_temp.d');
  } else {
    await query(declaredDuplicatesSql, [auditId]);
    await query(declaredSql, [auditId]);
    analyze.push('d');
  }
  let crawlDuplicates = known.crawlDuplicates;
  if (crawlDuplicates === null) {
    await query(crawledDuplicatesSql, [auditId]);
    crawlDuplicates = (await query('SELECT count(*)::int AS n FROM ck')).rows[0].n as number;
  }
  if (crawlDuplicates === 0) {
    await query(crawledViewSql(auditId));
    // Audits ingested before the crawl load took its own statistics.
    if (known.crawlDuplicates === null) await query(`ANALYZE "${partitionName('crawl_pages', auditId)}"`);
    views.push('pg_temp.c');
  } else {
    if (known.crawlDuplicates !== null) await query(crawledDuplicatesSql, [auditId]);
    await query(crawledSql, [auditId]);
    analyze.push('c');
  }
  await query(undeclaredSql);
  await query(exact ? looseSql : emptyLooseSql);
  await query(sectionsSql);
  await query(fileBasesSql, [auditId]);
  await query(analyzeSql(analyze));
  // Every join reads most of both sets: hash joins, whatever the (often far off) row estimates of the
  // freshly loaded partitions suggest. A nested loop over a crawl key index measured 1.8 s slower.
  await query('SET LOCAL enable_nestloop = off; SET LOCAL enable_mergejoin = off');
  return views;
}

/** Declared sets at least this large are classified by two sessions at once, half each (two cores). */
function splitMin(): number {
  return intEnv('RECONCILE_SPLIT_MIN', 200_000);
}

const stagingName = (auditId: string) => `findings_half_${auditId.replaceAll('-', '')}`;

/**
 * The second half of the declared findings, classified on a session of its own into a staging table that
 * it commits; the main session moves the rows into the audit's partition. Only when both sets came
 * without duplicate keys (the partitions are the keyed sets, nothing to merge first).
 */
async function declaredHalfElsewhere(
  auditId: string,
  known: IngestFacts,
  exact: boolean,
  crawlTime: Date | null,
): Promise<void> {
  const staging = stagingName(auditId);
  await transaction(
    async (client) => {
      const views = await prepareSets((sql, params = []) => client.query(sql, params), auditId, known, exact);
      await client.query(`CREATE TABLE "${staging}" (LIKE findings INCLUDING DEFAULTS)`);
      await client.query(declaredFindingsSql(staging, 1), [auditId, exact, crawlTime, 1]);
      await client.query(`DROP VIEW ${views.join(', ')}`);
    },
    // Temporary tables in memory, as PartitionLoad.begin does for the main session.
    (client) => client.query("SET temp_buffers = '2GB'").catch(() => {}),
  );
}

export async function reconcileAudit(auditId: string, options: ReconcileOptions): Promise<ReconcileOutcome> {
  await resetFindings(auditId);
  const load = await PartitionLoad.begin('findings', auditId);
  const query: Query = (sql, params = []) => load.query(sql, params);
  let other: Promise<void> | null = null;
  try {
    const known = await ingestFacts(load, auditId);
    const split =
      known.sitemapDuplicates === 0 && known.crawlDuplicates === 0 && known.sitemapUnique >= splitMin();
    if (split) {
      other = declaredHalfElsewhere(auditId, known, options.exact, options.crawlTime ?? known.latestCrawl);
      other.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    }
    const views = await prepareSets(query, auditId, known, options.exact);
    // Facts the ingest could not give (audits ingested before it recorded them) are read from the sets.
    const f =
      known.sitemapDuplicates === null || known.crawlDuplicates === null
        ? (await load.query(factsSql)).rows[0]
        : {
            declared: known.sitemapUnique,
            crawled: known.crawlRows - known.crawlDuplicates,
            latest_crawl: known.latestCrawl,
            newest_lastmod: known.newestLastmod,
          };
    const crawlTime = options.crawlTime ?? f.latest_crawl;
    if (other) {
      await load.query(declaredFindingsSql(load.part, 0), [auditId, options.exact, crawlTime, 0]);
      await other;
      await load.query(`INSERT INTO "${load.part}" SELECT * FROM "${stagingName(auditId)}"`);
      await load.query(`DROP TABLE "${stagingName(auditId)}"`);
    } else {
      await load.query(declaredFindingsSql(load.part), [auditId, options.exact, crawlTime]);
    }
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
    await other?.catch(() => {});
    await pool()
      .query(`DROP TABLE IF EXISTS "${stagingName(auditId)}"`)
      .catch(() => {});
    throw error;
  }
}
