// Runs the reconciliation of one audit in Postgres: the sets it compares, built once and shared by two
// sessions; findings loaded into the audit's partition and indexed in one transaction; counts per (list,
// reason, decision, host), chart and sanity facts.
import type pg from 'pg';
import { pool, transaction } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import {
  createAttachedPartition,
  dropPartition,
  PartitionLoad,
  partitionName,
  traced,
} from '@/lib/db/partitions';
import {
  addFindingsSql,
  aggregateSql,
  analyzeSql,
  countsInsertSql,
  crawledDuplicatesSql,
  crawledSql,
  crawledViewSql,
  declaredCanonicalsSql,
  declaredDuplicatesSql,
  declaredFindingsSql,
  declaredSql,
  declaredViewSql,
  factsSql,
  fileBasesSql,
  hostsNotCrawledSql,
  looseSql,
  redirectTargetsSql,
  type Sets,
  sectionsSql,
  setNames,
  setRelationNames,
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

/** Drops an audit's reconcile sets (views first: they read the partitions and the tables below). */
export async function dropSets(auditId: string): Promise<void> {
  const { rows } = await pool().query<{ relname: string; relkind: string }>(
    `SELECT relname, relkind FROM pg_class
      WHERE relname = ANY($1) AND relnamespace = 'public'::regnamespace ORDER BY relkind = 'v' DESC`,
    [setRelationNames(auditId)],
  );
  for (const { relname, relkind } of rows)
    await pool().query(`DROP ${relkind === 'v' ? 'VIEW' : 'TABLE'} IF EXISTS "${relname}"`);
}

/** Removes an earlier reconcile of the audit (its findings, decisions, counts and any sets left behind). */
export async function resetFindings(auditId: string): Promise<void> {
  await dropSets(auditId);
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

interface AggregateRow {
  list: string;
  reason: string;
  decision: string | null;
  host: string | null;
  file_id: number | null;
  n: number;
  by_list: boolean;
}

/** Counts per list/reason/decision/host and per file/reason of some findings, in one scan. */
async function aggregate(query: Query, table: string): Promise<AggregateRow[]> {
  return (await query(aggregateSql(table))).rows as AggregateRow[];
}

/** Adds up the aggregates of the parts of one audit's findings (two sessions, each its own rows). */
function mergeAggregates(parts: AggregateRow[][]): AggregateRow[] {
  const merged = new Map<string, AggregateRow>();
  for (const rows of parts) {
    for (const row of rows) {
      const key = JSON.stringify([row.by_list, row.list, row.reason, row.decision, row.host, row.file_id]);
      const seen = merged.get(key);
      if (seen) seen.n += row.n;
      else merged.set(key, { ...row });
    }
  }
  return [...merged.values()];
}

/** Stores the counts per list/reason/decision/host; returns the chart data and what the warnings need. */
async function storeCounts(load: PartitionLoad, auditId: string, rows: AggregateRow[]) {
  const counts = rows.filter((r) => r.by_list);
  await load.query(countsInsertSql, [auditId, JSON.stringify(counts)]);
  const byFile: FileReasonRow[] = rows
    .filter((r) => !r.by_list && r.list !== 'add')
    .map((r) => ({ fileId: r.file_id, reason: r.reason, n: r.n }));
  const unmatchedRows = counts.filter((r) => r.list !== 'add' && UNMATCHED.has(r.reason));
  return {
    byFile,
    pruneTotal: counts.filter((r) => r.list === 'prune').reduce((sum, r) => sum + r.n, 0),
    unmatched: unmatchedRows.reduce((sum, r) => sum + r.n, 0),
    unmatchedHosts: [...new Set(unmatchedRows.map((r) => r.host as string))],
  };
}

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;

/** Hash tables of a million keys want more than the default 4 MB of work memory. Two sessions already
 * keep both cores busy: parallel workers on top of them only compete (measured slower). */
async function setSession(query: Query): Promise<void> {
  await query("SET LOCAL work_mem = '512MB'; SET LOCAL max_parallel_workers_per_gather = 0");
}

/** Runs `work` in a transaction of its own on a pooled connection, traced like a load's statements. */
function onOwnSession<T>(work: (query: Query) => Promise<T>): Promise<T> {
  return transaction(async (client) => {
    const query: Query = (sql, params = []) => traced(sql, () => client.query(sql, params));
    await setSession(query);
    return work(query);
  });
}

/**
 * Builds the audit's sets (lib/reconcile/sql.ts: Sets) and commits them, on two sessions at once: first
 * the keyed sets d and c, then u and cl on one session while the other derives sec, fo, rt and cdk.
 * Whether keys repeat is known from the ingest, or counted here for audits ingested before it was.
 */
async function buildSets(n: Sets, auditId: string, known: IngestFacts, exact: boolean): Promise<void> {
  await dropSets(auditId);
  await Promise.all([
    onOwnSession(async (query) => {
      // Duplicate keys are rare: when there are none, the partition itself is the keyed set (a view).
      if (known.sitemapDuplicates === 0) return query(declaredViewSql(n, auditId));
      await query(declaredDuplicatesSql(n), [auditId]);
      await query(declaredSql(n), [auditId]);
      await query(analyzeSql([n.d]));
    }),
    onOwnSession(async (query) => {
      if (known.crawlDuplicates === 0) return query(crawledViewSql(n, auditId));
      await query(crawledDuplicatesSql(n), [auditId]);
      const duplicates = (await query(`SELECT count(*)::int AS n FROM ${n.ck}`)).rows[0].n as number;
      if (duplicates === 0) {
        await query(crawledViewSql(n, auditId));
        // An audit ingested before the crawl load took its own statistics.
        await query(`ANALYZE "${partitionName('crawl_pages', auditId)}"`);
        return;
      }
      await query(crawledSql(n), [auditId]);
      await query(analyzeSql([n.c]));
    }),
  ]);
  await Promise.all([
    onOwnSession(async (query) => {
      await query(undeclaredSql(n));
      await query(looseSql(n, exact));
      await query(analyzeSql([n.u, n.cl]));
    }),
    onOwnSession(async (query) => {
      await query(sectionsSql(n));
      await query(fileBasesSql(n), [auditId]);
      await query(redirectTargetsSql(n));
      await query(declaredCanonicalsSql(n));
      await query(analyzeSql([n.sec, n.fo, n.rt, n.cdk]));
    }),
  ]);
}

/** Settings for the statements that classify: every join reads most of both sets, so hash joins, whatever
 * the (often far off) row estimates of freshly loaded partitions suggest (a nested loop over a crawl key
 * index measured 1.8 s slower). */
async function classifySettings(query: Query): Promise<void> {
  await query('SET LOCAL enable_nestloop = off; SET LOCAL enable_mergejoin = off');
}

/** Declared sets at least this large are classified by two sessions at once (two cores). */
function splitMin(): number {
  return intEnv('RECONCILE_SPLIT_MIN', 200_000);
}

/** The main session's share of the declared set, in percent: it also classifies the add list and moves the
 * other session's rows in, so it takes less than half (both then finish at about the same time). */
const MAIN_SHARE = 44;

const stagingName = (auditId: string) => `findings_half_${auditId.replaceAll('-', '')}`;

/**
 * The other part of the declared findings, classified on a session of its own into a staging table that
 * it commits, with that part's counts; the main session moves the rows into the audit's partition.
 */
function declaredHalfElsewhere(
  n: Sets,
  auditId: string,
  exact: boolean,
  crawlTime: Date | null,
): Promise<AggregateRow[]> {
  const staging = stagingName(auditId);
  return onOwnSession(async (query) => {
    await classifySettings(query);
    await query(`CREATE UNLOGGED TABLE "${staging}" (LIKE findings INCLUDING DEFAULTS)`);
    await query(declaredFindingsSql(n, staging, 'other'), [auditId, exact, crawlTime, MAIN_SHARE]);
    return aggregate(query, staging);
  });
}

export async function reconcileAudit(auditId: string, options: ReconcileOptions): Promise<ReconcileOutcome> {
  await resetFindings(auditId);
  const n = setNames(auditId);
  const load = await PartitionLoad.begin('findings', auditId);
  const query: Query = (sql, params = []) => load.query(sql, params);
  let other: Promise<AggregateRow[]> | null = null;
  try {
    const known = await ingestFacts(load, auditId);
    await buildSets(n, auditId, known, options.exact);
    // Facts the ingest could not give (audits ingested before it recorded them) are read from the sets.
    const f =
      known.sitemapDuplicates === null || known.crawlDuplicates === null
        ? (await load.query(factsSql(n))).rows[0]
        : {
            declared: known.sitemapUnique,
            crawled: known.crawlRows - known.crawlDuplicates,
            latest_crawl: known.latestCrawl,
            newest_lastmod: known.newestLastmod,
          };
    const crawlTime = options.crawlTime ?? f.latest_crawl;
    await setSession(query);
    await classifySettings(query);
    const parts: AggregateRow[][] = [];
    if (f.declared >= splitMin()) {
      other = declaredHalfElsewhere(n, auditId, options.exact, crawlTime);
      other.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
      await load.query(declaredFindingsSql(n, load.part, 'main'), [
        auditId,
        options.exact,
        crawlTime,
        MAIN_SHARE,
      ]);
    } else {
      await load.query(declaredFindingsSql(n, load.part), [auditId, options.exact, crawlTime]);
    }
    const added = (await load.query(addFindingsSql(n, load.part), [auditId])).rows[0];
    // This session's rows are counted while the other session may still be classifying its half.
    parts.push(await aggregate(query, load.part));
    if (other) {
      parts.push(await other);
      await load.query(`INSERT INTO "${load.part}" SELECT * FROM "${stagingName(auditId)}"`);
      await load.query(`DROP TABLE "${stagingName(auditId)}"`);
    }
    const counted = await storeCounts(load, auditId, mergeAggregates(parts));
    const facts: ReconcileFacts = {
      declared: f.declared,
      crawled: f.crawled,
      matched: f.declared - counted.unmatched,
      latestCrawl: f.latest_crawl,
      newestLastmod: f.newest_lastmod,
      hostsNotCrawled: (await load.query(hostsNotCrawledSql(n), [counted.unmatchedHosts])).rows[0].hosts,
    };
    const addExcluded = { non200: added.non200, noindex: added.noindex, canonicalised: added.canonicalised };
    await load.commit();
    await createAttachedPartition('decision_log', auditId);
    await dropSets(auditId);
    return { facts, crawlTime, addExcluded, byFile: counted.byFile, pruneTotal: counted.pruneTotal };
  } catch (error) {
    await load.rollback().catch(() => {});
    await other?.catch(() => {});
    await pool()
      .query(`DROP TABLE IF EXISTS "${stagingName(auditId)}"`)
      .catch(() => {});
    await dropSets(auditId).catch(() => {});
    throw error;
  }
}
