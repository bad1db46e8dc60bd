// Runs the reconciliation of one audit in Postgres: the sets it compares, built once and shared by two
// sessions; findings loaded into the audit's partition and indexed in one transaction; counts per (list,
// reason, decision, host), chart and sanity facts.
import 'server-only';
import type pg from 'pg';
import { displaySql } from '@/lib/core/display';
import { pool, transaction } from '@/lib/db/client';
import { intEnv } from '@/lib/db/config';
import {
  ASYNCHRONOUS_COMMIT,
  BULK_SCHEMA,
  createAttachedPartition,
  createPartSql,
  dropPartition,
  keySql,
  PartitionLoad,
  partitionBound,
  partitionName,
  secondFindingsPart,
  traced,
} from '@/lib/db/partitions';
import type { ADD_EXCLUSIONS } from '@/lib/findings/reasons';
import type { TFindingsSummary } from '@/lib/findings/schema';
import {
  addFindingsSql,
  aggregateSql,
  analyzeSql,
  type ClassifyOptions,
  canonicalPatternsSql,
  countsInsertSql,
  crawledDuplicatesSql,
  crawledSql,
  crawledViewSql,
  crawlMatchSql,
  declaredCanonicalsSql,
  declaredDuplicatesSql,
  declaredFindingsSql,
  declaredHostsSql,
  declaredSectionsSql,
  declaredSql,
  declaredViewSql,
  factsSql,
  fileBasesSql,
  hostsNotCrawledSql,
  looseSql,
  otherHostsSql,
  redirectTargetsSql,
  type Sets,
  sectionsSql,
  setNames,
  setRelationNames,
  targetsSql,
  undeclaredSql,
} from './sql';
import { type CrawlMatch, type FileReasonRow, isCrawlMismatch, type ReconcileFacts } from './summary';

export interface ReconcileOptions extends ClassifyOptions {
  /** url_variant needs exact keys: with the lenient profile the loose key adds little and is skipped. */
  exact: boolean;
  /** Overrides the crawl time (else the latest crawled_at of the crawl). */
  crawlTime: Date | null;
}

/** Undeclared crawled pages the add list's rule left out, by why. */
type AddExcluded = Record<(typeof ADD_EXCLUSIONS)[number], number>;

/** A host of crawled pages left off the add list as another site's, with how many and one URL. */
export interface OtherHost {
  host: string;
  n: number;
  example: string;
}

/** A canonical shared by declared pages that are not near-duplicates of it, and three of them. */
export interface CanonicalPattern {
  target: string;
  n: number;
  examples: string[];
}

/** A signal SEOs look for, with how many findings carry it and the first ten of their URLs. */
export interface SignalFacts {
  signal: string;
  n: number;
  examples: string[];
}

/** Declared URLs that more than one sitemap file lists (any URL, not only findings). */
export interface MultiFileFacts {
  n: number;
  examples: { url: string; fileIds: number[] }[];
}

export interface ReconcileOutcome {
  facts: ReconcileFacts;
  crawlTime: Date | null;
  addExcluded: AddExcluded;
  byFile: FileReasonRow[];
  pruneTotal: number;
  /** Held as newer_than_crawl: changed after the crawl, which did not reach them. */
  heldRecent: number;
  signals: SignalFacts[];
  multiFile: MultiFileFacts;
  /** How much of the declared sections and hosts the crawl reached, and whether that is a mismatch. */
  crawlMatch: CrawlMatch;
  otherHosts: OtherHost[];
  /** The largest canonical patterns (up to 10) and how many declared URLs are held as one. */
  canonicalPatterns: CanonicalPattern[];
  heldPattern: number;
  /** Held as crawl_mismatch: never reached by a crawl that does not match the sitemap. */
  heldMismatch: number;
}

/** Drops an audit's reconcile sets (views first: they read the partitions and the tables below). */
export async function dropSets(auditId: string): Promise<void> {
  // The worker makes them in its own schema; an older version left them in public.
  const { rows } = await pool().query<{ name: string; relkind: string }>(
    `SELECT oid::regclass::text AS name, relkind FROM pg_class
      WHERE relname = ANY($1) AND relnamespace IN ('public'::regnamespace, '${BULK_SCHEMA}'::regnamespace)
      ORDER BY relkind = 'v' DESC`,
    [setRelationNames(auditId)],
  );
  for (const { name, relkind } of rows)
    await pool().query(`DROP ${relkind === 'v' ? 'VIEW' : 'TABLE'} IF EXISTS ${name}`);
}

/** Removes an earlier reconcile of the audit (its findings, decisions, counts and any sets left behind). */
export async function resetFindings(auditId: string): Promise<void> {
  await dropSets(auditId);
  await dropPartition('findings', auditId);
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
  /** Sections the built-in crawler cut at a limit (lib/crawler): not crawled completely, so their
   * unreached URLs are held, not pruned. Empty for an imported export. */
  cutSections: string[];
  /** The built-in crawl stopped before its frontier was done (page limit, a failing or refusing site): the
   * pages it never fetched could have linked anywhere, so no section counts as crawled completely. */
  crawlStopped: boolean;
}

async function ingestFacts(auditId: string): Promise<IngestFacts> {
  const { rows } = await pool().query(
    `SELECT sitemap_unique_urls AS "sitemapUnique", sitemap_duplicate_keys AS "sitemapDuplicates",
            sitemap_newest_lastmod AS "newestLastmod", crawl_rows AS "crawlRows",
            crawl_duplicate_keys AS "crawlDuplicates", crawl_latest_at AS "latestCrawl",
            coalesce((SELECT array_agg(s->>'section') FROM jsonb_array_elements(crawl_progress->'sections') s
                       WHERE s->'cut' <> '{}'::jsonb), '{}') AS "cutSections",
            coalesce(jsonb_typeof(crawl_progress->'stopped') = 'object', false) AS "crawlStopped"
       FROM audits WHERE id = $1`,
    [auditId],
  );
  if (!rows[0]) throw new Error(`audit ${auditId} not found`);
  return rows[0] as IngestFacts;
}

const UNMATCHED = new Set([
  'unreached_by_crawl',
  'url_variant',
  'newer_than_crawl',
  'section_not_crawled',
  'crawl_mismatch',
]);

interface AggregateRow {
  list: string;
  reason: string;
  decision: string | null;
  host: string | null;
  file_id: number | null;
  signals: string[] | null;
  n: number;
  by_list: boolean;
  by_signals: boolean;
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
      const key = JSON.stringify([
        row.by_list,
        row.by_signals,
        row.list,
        row.reason,
        row.decision,
        row.host,
        row.file_id,
        row.signals,
      ]);
      const seen = merged.get(key);
      if (seen) seen.n += row.n;
      else merged.set(key, { ...row });
    }
  }
  return [...merged.values()];
}

/** Findings per signal, from the aggregate's counts per combination of signals, with up to ten URLs of
 * each (read only for signals that occur, so an audit without any costs no scan). */
async function signalFacts(query: Query, parts: string[], rows: AggregateRow[]): Promise<SignalFacts[]> {
  const counts = new Map<string, number>();
  for (const row of rows)
    if (row.by_signals)
      for (const signal of row.signals ?? []) counts.set(signal, (counts.get(signal) ?? 0) + row.n);
  const facts: SignalFacts[] = [];
  for (const [signal, n] of [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const examples: string[] = [];
    for (const part of parts) {
      if (examples.length >= 10) break;
      const { rows: found } = await query(
        // Cut as every page shows it: an example is stored in the audit row, read with every summary.
        `SELECT ${displaySql('url')} AS url FROM "${part}" WHERE $1 = ANY(signals) ORDER BY id LIMIT ${10 - examples.length}`,
        [signal],
      );
      examples.push(...found.map((r) => r.url as string));
    }
    facts.push({ signal, n, examples });
  }
  return facts;
}

/** Declared URLs in more than one sitemap file: only keys that repeat can be, so the declared set's few
 * repeated keys are all there is to read. */
async function multiFileFacts(query: Query, n: Sets): Promise<MultiFileFacts> {
  const { rows } = await query(
    `SELECT count(*) OVER ()::int AS n, loc AS url, file_ids AS "fileIds" FROM ${n.d}
      WHERE cardinality(file_ids) > 1 ORDER BY file_id, position LIMIT 10`,
  );
  const typed = rows as { n: number; url: string; fileIds: number[] }[];
  return { n: typed[0]?.n ?? 0, examples: typed.map(({ url, fileIds }) => ({ url, fileIds })) };
}

/** Stores the counts per list/reason/decision/host; returns the chart data and what the warnings need. */
async function storeCounts(load: PartitionLoad, auditId: string, rows: AggregateRow[]) {
  const counts = rows.filter((r) => r.by_list);
  await load.query(countsInsertSql, [auditId, JSON.stringify(counts)]);
  const byFile: FileReasonRow[] = rows
    .filter((r) => !r.by_list && !r.by_signals && r.list !== 'add')
    .map((r) => ({ fileId: r.file_id, reason: r.reason, n: r.n }));
  const unmatchedRows = counts.filter((r) => r.list !== 'add' && UNMATCHED.has(r.reason));
  return {
    byFile,
    pruneTotal: counts.filter((r) => r.list === 'prune').reduce((sum, r) => sum + r.n, 0),
    heldRecent: counts
      .filter((r) => r.list === 'held' && r.reason === 'newer_than_crawl')
      .reduce((sum, r) => sum + r.n, 0),
    heldPattern: counts
      .filter((r) => r.list === 'held' && r.reason === 'canonical_pattern')
      .reduce((sum, r) => sum + r.n, 0),
    heldMismatch: counts
      .filter((r) => r.list === 'held' && r.reason === 'crawl_mismatch')
      .reduce((sum, r) => sum + r.n, 0),
    unmatched: unmatchedRows.reduce((sum, r) => sum + r.n, 0),
    unmatchedHosts: [...new Set(unmatchedRows.map((r) => r.host as string))],
  };
}

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult>;

/** Names a reconcile's sessions in pg_stat_activity, so a cancelled run can stop their statements. */
function sessionName(auditId: string): string {
  return `reconcile ${auditId}`;
}

/** Hash tables of a million keys want more than the default 4 MB of work memory. Two sessions already
 * keep both cores busy: parallel workers on top of them only compete (measured slower). The sets and
 * findings parts are committed asynchronously: nothing of a reconcile is final before its step's state
 * change commits (synchronously) after them, so a crash that loses one of these commits is a clean retry
 * (ASYNCHRONOUS_COMMIT says why). */
async function setSession(query: Query, auditId: string): Promise<void> {
  await query(
    `SET LOCAL work_mem = '512MB'; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL application_name = '${sessionName(auditId)}'; ${ASYNCHRONOUS_COMMIT}`,
  );
}

/** Runs `work` in a transaction of its own on a pooled connection, traced like a load's statements. */
function onOwnSession<T>(auditId: string, work: (query: Query) => Promise<T>): Promise<T> {
  return transaction(async (client) => {
    const query: Query = (sql, params = []) => traced(sql, () => client.query(sql, params));
    await setSession(query, auditId);
    return work(query);
  });
}

/** Stops the statements a reconcile of the audit is running (its run was cancelled): they fail, and the
 * reconcile rolls back and drops what it built. */
async function cancelSessions(auditId: string): Promise<void> {
  await pool().query(
    'SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()',
    [sessionName(auditId)],
  );
}

/**
 * Builds the audit's sets (lib/reconcile/sql.ts: Sets) and commits them, on two sessions at once: first
 * the keyed sets d and c, then u, cl and cp on one session while the other derives sec, fo, tg, rt, cdk, ds and dh.
 * Whether keys repeat is known from the ingest, or counted here for audits ingested before it was.
 */
async function buildSets(n: Sets, auditId: string, known: IngestFacts, exact: boolean): Promise<void> {
  await dropSets(auditId);
  await Promise.all([
    onOwnSession(auditId, async (query) => {
      // Duplicate keys are rare: when there are none, the partition itself is the keyed set (a view).
      if (known.sitemapDuplicates === 0) return query(declaredViewSql(n, auditId));
      await query(declaredDuplicatesSql(n), [auditId]);
      await query(declaredSql(n), [auditId]);
      await query(analyzeSql([n.d]));
    }),
    onOwnSession(auditId, async (query) => {
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
    onOwnSession(auditId, async (query) => {
      await query(undeclaredSql(n));
      await query(looseSql(n, exact));
      await query(canonicalPatternsSql(n));
      await query(analyzeSql([n.u, n.cl, n.cp]));
    }),
    onOwnSession(auditId, async (query) => {
      // tg is joined right after it is made, before any statistics: without them the planner sorted both
      // sides of rt's and cdk's joins (1.5–2 s more than hashing the small side).
      await query('SET LOCAL enable_mergejoin = off');
      await query(sectionsSql(n));
      // A section the crawler cut at a limit was reached (its host is crawled), but not completely.
      if (known.crawlStopped) await query(`UPDATE ${n.sec} SET complete = false`);
      else if (known.cutSections.length > 0)
        await query(`UPDATE ${n.sec} SET complete = false WHERE section = ANY($1::text[])`, [
          known.cutSections,
        ]);
      await query(fileBasesSql(n), [auditId]);
      await query(targetsSql(n));
      await query(redirectTargetsSql(n));
      await query(declaredCanonicalsSql(n));
      await query(declaredSectionsSql(n));
      await query(declaredHostsSql(n));
      await query(analyzeSql([n.sec, n.fo, n.rt, n.cdk, n.ds, n.dh]));
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

/** The main session's share of the declared set, in percent: the other session also classifies the add
 * list (so both finish at about the same time). */
const MAIN_SHARE = 61;

/**
 * The second part of an audit's findings — declared keys whose ids are from `from` on, and the add list —
 * classified on a session of its own into a table of its own, keyed and committed there; the main session
 * attaches it beside its own part. Returns that part's counts and the add list's exclusions.
 */
function secondPart(
  n: Sets,
  auditId: string,
  from: number,
  options: ReconcileOptions,
  crawlTime: Date | null,
) {
  const part = secondFindingsPart(auditId);
  return onOwnSession(auditId, async (query) => {
    await classifySettings(query);
    for (const sql of createPartSql('findings', part, auditId, { from })) await query(sql);
    await query(declaredFindingsSql(n, part, 'from', options), [auditId, options.exact, crawlTime, from]);
    const added = (await query(addFindingsSql(n, part), [auditId])).rows[0] as AddExcluded;
    const counts = await aggregate(query, part);
    for (const sql of keySql('findings', part)) await query(sql);
    return { counts, added };
  });
}

export async function reconcileAudit(
  auditId: string,
  options: ReconcileOptions,
  signal?: AbortSignal,
): Promise<ReconcileOutcome> {
  signal?.throwIfAborted();
  await resetFindings(auditId);
  const stop = () => void cancelSessions(auditId).catch(() => {});
  signal?.addEventListener('abort', stop);
  const n = setNames(auditId);
  let load: PartitionLoad | null = null;
  let other: ReturnType<typeof secondPart> | null = null;
  try {
    const known = await ingestFacts(auditId);
    await buildSets(n, auditId, known, options.exact);
    // Facts the ingest could not give (audits ingested before it recorded them) are read from the sets.
    const f =
      known.sitemapDuplicates === null || known.crawlDuplicates === null
        ? (await pool().query(factsSql(n))).rows[0]
        : {
            declared: known.sitemapUnique,
            crawled: known.crawlRows - known.crawlDuplicates,
            latest_crawl: known.latestCrawl,
            newest_lastmod: known.newestLastmod,
          };
    const crawlTime = options.crawlTime ?? f.latest_crawl;
    // Whether the crawl matches the sitemap decides, before classifying, how unreached URLs are judged.
    const reach = (await pool().query(crawlMatchSql(n))).rows[0] as {
      sections: number;
      sections_reached: number;
      hosts: number;
      hosts_reached: number;
    };
    // Declared keys crawled as they are: every crawled key but the undeclared ones.
    const undeclared = (await pool().query(`SELECT count(*)::int AS n FROM ${n.u}`)).rows[0].n as number;
    const crawlMatch: CrawlMatch = {
      sections: reach.sections,
      sectionsReached: reach.sections_reached,
      hosts: reach.hosts,
      hostsReached: reach.hosts_reached,
      declared: f.declared,
      urlsReached: f.crawled - undeclared,
      crawled: f.crawled,
      undeclared,
      mismatch: false,
    };
    crawlMatch.mismatch = isCrawlMismatch(crawlMatch);
    const classify: ReconcileOptions = { ...options, crawlMismatch: crawlMatch.mismatch };
    // Declared findings have ids 1..total (see fileBasesSql); a split puts those below `mid` in the main
    // part and the rest, with the add list (ids above total), in the second.
    const total = (await pool().query(`SELECT coalesce(max(total), 0)::int AS total FROM ${n.fo}`)).rows[0]
      .total as number;
    const mid = f.declared >= splitMin() ? Math.max(1, Math.round((total * MAIN_SHARE) / 100)) : null;
    const started = await PartitionLoad.begin('findings', auditId, mid === null ? {} : { below: mid });
    load = started;
    const query: Query = (sql, params = []) => started.query(sql, params);
    await setSession(query, auditId);
    await classifySettings(query);
    let added: AddExcluded;
    const parts: AggregateRow[][] = [];
    if (mid !== null) {
      other = secondPart(n, auditId, mid, classify, crawlTime);
      other.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
      await query(declaredFindingsSql(n, started.part, 'below', classify), [
        auditId,
        options.exact,
        crawlTime,
        mid,
      ]);
      // This session's rows are counted while the other session may still be classifying.
      parts.push(await aggregate(query, started.part));
      const second = await other;
      parts.push(second.counts);
      added = second.added;
    } else {
      await query(declaredFindingsSql(n, started.part, undefined, classify), [
        auditId,
        options.exact,
        crawlTime,
      ]);
      added = (await query(addFindingsSql(n, started.part), [auditId])).rows[0] as AddExcluded;
      parts.push(await aggregate(query, started.part));
    }
    const merged = mergeAggregates(parts);
    const counted = await storeCounts(started, auditId, merged);
    const facts: ReconcileFacts = {
      declared: f.declared,
      crawled: f.crawled,
      matched: f.declared - counted.unmatched,
      latestCrawl: f.latest_crawl,
      newestLastmod: f.newest_lastmod,
      hostsNotCrawled: (await query(hostsNotCrawledSql(n), [counted.unmatchedHosts])).rows[0].hosts,
    };
    const tables = mid === null ? [started.part] : [started.part, secondFindingsPart(auditId)];
    const signals = await signalFacts(query, tables, merged);
    const multiFile = await multiFileFacts(query, n);
    const otherHosts = added.otherHost > 0 ? ((await query(otherHostsSql(n))).rows as OtherHost[]) : [];
    const canonicalPatterns =
      counted.heldPattern > 0
        ? ((await query(`SELECT target, n, examples FROM ${n.cp} ORDER BY n DESC, target LIMIT 10`))
            .rows as CanonicalPattern[])
        : [];
    // Nothing of a cancelled run is committed, even when its last statement had just finished.
    signal?.throwIfAborted();
    await started.commit(
      mid === null
        ? []
        : [{ part: secondFindingsPart(auditId), bound: partitionBound('findings', auditId, { from: mid }) }],
    );
    await createAttachedPartition('decision_log', auditId);
    await dropSets(auditId);
    return {
      facts,
      crawlTime,
      addExcluded: added,
      byFile: counted.byFile,
      pruneTotal: counted.pruneTotal,
      heldRecent: counted.heldRecent,
      signals,
      multiFile,
      crawlMatch,
      otherHosts,
      canonicalPatterns,
      heldPattern: counted.heldPattern,
      heldMismatch: counted.heldMismatch,
    };
  } catch (error) {
    await load?.rollback().catch(() => {});
    await other?.catch(() => {});
    // The second part may have been committed before the main session failed.
    await dropPartition('findings', auditId).catch(() => {});
    await dropSets(auditId).catch(() => {});
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** Writes what the reconcile step learnt (in its state-change transaction, see lib/runs). */
export async function saveReconcileResults(
  client: pg.PoolClient,
  auditId: string,
  results: { warnings: unknown[]; summary: TFindingsSummary; timings: Record<string, unknown> },
): Promise<void> {
  await client.query(
    `UPDATE audits SET reconciled_at = now(), warnings = $2::jsonb, findings_summary = $3::jsonb,
       timings = $4::jsonb, progress_done = 1, progress_total = 1 WHERE id = $1`,
    [
      auditId,
      JSON.stringify(results.warnings),
      JSON.stringify(results.summary),
      JSON.stringify(results.timings),
    ],
  );
}
